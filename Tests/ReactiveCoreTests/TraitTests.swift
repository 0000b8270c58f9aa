import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Driver and Signal")
struct TraitTests {
    let scheduler = TestScheduler()

    @Test("a driver replaces an error with its fallback and completes")
    func driverNeverErrors() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let observer = scheduler.start { source.asDriver(onErrorJustReturn: -1).asObservable() }
        #expect(observer.events == [.next(210, 1), .next(220, -1), .completed(220)])
    }

    @Test("a driver shares one subscription and replays the latest element")
    func driverSharesAndReplays() {
        var subscriptions = 0
        let relay = BehaviorRelay(value: 1)
        let driver = relay.asObservable()
            .do(onSubscribe: { subscriptions += 1 })
            .asDriver(onErrorJustReturn: 0)
            .map { $0 * 10 }
        var first: [Int] = []
        var second: [Int] = []
        let bag = DisposeBag()
        driver.drive(onNext: { first.append($0) }).disposed(by: bag)
        relay.accept(2)
        driver.drive(onNext: { second.append($0) }).disposed(by: bag)
        #expect(first == [10, 20])
        #expect(second == [20])
        #expect(subscriptions == 1)
    }

    @Test("a driver given a scheduler delivers through it")
    func driverOnScheduler() {
        let relay = BehaviorRelay(value: 1)
        var received: [Int] = []
        let subscription = relay.asDriver(onErrorJustReturn: 0, scheduler: scheduler).drive(onNext: { received.append($0) })
        #expect(received.isEmpty)
        scheduler.advance()
        #expect(received == [1])
        subscription.dispose()
    }

    @Test("a signal does not replay to late subscribers")
    func signalDoesNotReplay() {
        let relay = PublishRelay<Int>()
        let signal = relay.asSignal().map { $0 + 1 }
        var first: [Int] = []
        var second: [Int] = []
        let bag = DisposeBag()
        signal.emit(onNext: { first.append($0) }).disposed(by: bag)
        relay.accept(1)
        signal.emit(onNext: { second.append($0) }).disposed(by: bag)
        relay.accept(2)
        #expect(first == [2, 3])
        #expect(second == [3])
    }
}
