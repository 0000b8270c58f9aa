import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Driver and Signal combining operators")
struct TraitCombiningTests {
    let scheduler = TestScheduler()

    @Test("Driver.combineLatest combines the latest values and replays the result")
    func driverCombineLatest() {
        let email = BehaviorRelay(value: "")
        let password = BehaviorRelay(value: "")
        let isValid = Driver.combineLatest(email.asDriver(), password.asDriver()) { !$0.isEmpty && !$1.isEmpty }
        let observer = scheduler.createObserver(Bool.self)
        let late = scheduler.createObserver(Bool.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { isValid.drive(observer).disposed(by: bag) }
        scheduler.scheduleAt(210) { email.accept("a@b") }
        scheduler.scheduleAt(220) { password.accept("secret") }
        scheduler.scheduleAt(230) { isValid.drive(late).disposed(by: bag) }
        scheduler.start()
        #expect(observer.events == [.next(200, false), .next(210, false), .next(220, true)])
        #expect(late.events == [.next(230, true)])
    }

    @Test("Driver.combineLatest of an array and of no drivers")
    func driverCombineLatestArray() {
        let a = BehaviorRelay(value: 1)
        let b = BehaviorRelay(value: 2)
        var values: [[Int]] = []
        let bag = DisposeBag()
        Driver.combineLatest([a.asDriver(), b.asDriver()]).drive(onNext: { values.append($0) }).disposed(by: bag)
        b.accept(3)
        Driver<[Int]>.combineLatest([Driver<Int>]()).drive(onNext: { values.append($0) }).disposed(by: bag)
        #expect(values == [[1, 2], [1, 3], []])
    }

    @Test("Driver.withLatestFrom and Driver.merge")
    func driverWithLatestFromAndMerge() {
        let taps = PublishRelay<Int>()
        let form = BehaviorRelay(value: "draft")
        let other = PublishRelay<Int>()
        let tapped = taps.asDriver(onErrorJustReturn: 0).withLatestFrom(form.asDriver()) { "\($0):\($1)" }
        let merged = Driver.merge(taps.asDriver(onErrorJustReturn: 0), other.asDriver(onErrorJustReturn: 0))
        var saved: [String] = []
        var all: [Int] = []
        let bag = DisposeBag()
        tapped.drive(onNext: { saved.append($0) }).disposed(by: bag)
        merged.drive(onNext: { all.append($0) }).disposed(by: bag)
        taps.accept(1)
        form.accept("final")
        other.accept(9)
        taps.accept(2)
        #expect(saved == ["1:draft", "2:final"])
        #expect(all == [1, 9, 2])
    }

    @Test("Driver.debounce waits for a quiet period on its scheduler")
    func driverDebounce() {
        let query = BehaviorRelay(value: "")
        let observer = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { query.asDriver().debounce(.milliseconds(50), scheduler: scheduler).drive(observer).disposed(by: bag) }
        scheduler.scheduleAt(210) { query.accept("r") }
        scheduler.scheduleAt(230) { query.accept("rx") }
        scheduler.scheduleAt(400) { query.accept("rxs") }
        scheduler.start()
        #expect(observer.events == [.next(280, "rx"), .next(450, "rxs")])
    }

    @Test("Signal.withLatestFrom reads a driver's state at each event; Signal.merge and combineLatest")
    func signalOperators() {
        let submit = PublishRelay<Void>()
        let cancel = PublishRelay<Void>()
        let form = BehaviorRelay(value: "a")
        let saves = submit.asSignal().withLatestFrom(form.asDriver())
        let taps = Signal.merge(submit.asSignal().map { "submit" }, cancel.asSignal().map { "cancel" })
        let both = Signal.combineLatest(submit.asSignal().map { 1 }, cancel.asSignal().map { 2 }) { $0 + $1 }
        var saved: [String] = []
        var tapped: [String] = []
        var sums: [Int] = []
        let bag = DisposeBag()
        saves.emit(onNext: { saved.append($0) }).disposed(by: bag)
        taps.emit(onNext: { tapped.append($0) }).disposed(by: bag)
        both.emit(onNext: { sums.append($0) }).disposed(by: bag)
        submit.accept(())
        form.accept("b")
        cancel.accept(())
        submit.accept(())
        #expect(saved == ["a", "b"])
        #expect(tapped == ["submit", "cancel", "submit"])
        #expect(sums == [3, 3])
    }

    @Test("Signal.debounce emits after a quiet period and does not replay")
    func signalDebounce() {
        let typed = PublishRelay<Int>()
        let debounced = typed.asSignal().debounce(.milliseconds(50), scheduler: scheduler)
        let observer = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) { debounced.emit(to: observer).disposed(by: bag) }
        scheduler.scheduleAt(210) { typed.accept(1) }
        scheduler.scheduleAt(220) { typed.accept(2) }
        scheduler.scheduleAt(300) { debounced.emit(to: late).disposed(by: bag) }
        scheduler.start()
        #expect(observer.events == [.next(270, 2)])
        #expect(late.events.isEmpty)
    }
}
