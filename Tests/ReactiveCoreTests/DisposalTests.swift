import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Disposal and memory")
struct DisposalTests {
    @Test("no event reaches an observer after its subscription was disposed")
    func noEventAfterDispose() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let observer = scheduler.start(disposed: 250) {
            source.map { $0 }.filter { _ in true }.distinctUntilChanged().share(replay: 1)
        }
        #expect(observer.events == [.next(210, 1)])
        #expect(source.subscriptions == [Subscription(200, 250)])
    }

    @Test("disposing inside onNext stops the rest of a synchronous sequence")
    func disposeDuringSynchronousEmission() {
        // subscribe(on:) hands the disposable back before the synchronous emission starts.
        let scheduler = TestScheduler()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = Observable.from(1...5).subscribe(on: scheduler).map { $0 }.subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription?.dispose() }
        })
        scheduler.start()
        #expect(received == [1, 2])
    }

    @Test("onDisposed runs once, after completion or on dispose")
    func onDisposedOnce() {
        var disposed = 0
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onDisposed: { disposed += 1 })
        subject.onCompleted()
        subscription.dispose()
        #expect(disposed == 1)
    }

    @Test("a dispose bag disposes its subscriptions when released")
    func disposeBag() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        if let bag { subject.subscribe(onNext: { received.append($0) }).disposed(by: bag) }
        subject.onNext(1)
        bag = nil
        subject.onNext(2)
        #expect(received == [1])
        #expect(!subject.hasObservers)
    }

    @Test("a dispose bag disposes one, two or many subscriptions once each, in insertion order, and later ones at once", arguments: [0, 1, 2, 5])
    func disposeBagOrder(count: Int) {
        var disposed: [Int] = []
        let bag = DisposeBag()
        for index in 0..<count {
            bag.insert(Disposables.create { disposed.append(index) })
        }
        // One inserted while the bag disposes: disposed at once, after the one inserting it.
        bag.insert(Disposables.create {
            disposed.append(100)
            bag.insert(Disposables.create { disposed.append(101) })
        })
        #expect(disposed.isEmpty)
        bag.dispose()
        #expect(disposed == Array(0..<count) + [100, 101])
        bag.dispose()
        bag.insert(Disposables.create { disposed.append(200) })
        #expect(disposed == Array(0..<count) + [100, 101, 200])
    }

    @Test("composite, serial and single-assignment disposables dispose what they hold")
    func disposableKinds() {
        var log: [String] = []
        let composite = CompositeDisposable()
        let key = composite.insert(Disposables.create { log.append("a") })
        composite.insert(Disposables.create { log.append("b") })
        if let key { composite.remove(for: key) }
        composite.dispose()
        composite.insert(Disposables.create { log.append("c") })
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { log.append("d") }
        serial.disposable = Disposables.create { log.append("e") }
        serial.dispose()
        let single = SingleAssignmentDisposable()
        single.dispose()
        single.setDisposable(Disposables.create { log.append("f") })
        #expect(log == ["a", "b", "c", "d", "e", "f"])
    }

    @Test("a disposed chain releases its objects while its source lives on")
    func disposedChainReleasesObjects() {
        let subject = PublishSubject<Int>()
        let other = BehaviorRelay(value: 0)
        weak var weakCanary: Canary?
        weak var weakChain: Observable<Int>?
        var subscription: (any Disposable)?
        do {
            let canary = Canary()
            weakCanary = canary
            let chain = subject
                .map { $0 + canary.value }
                .flatMapLatest { value in other.asObservable().map { $0 + value } }
                .withLatestFrom(other) { a, b in a + b + canary.value }
                .share(replay: 1)
            weakChain = chain
            subscription = chain.subscribe(onNext: { _ in canary.value += 1 })
            subject.onNext(1)
        }
        #expect(weakCanary != nil)
        subscription?.dispose()
        subscription = nil
        #expect(weakCanary == nil)
        #expect(weakChain == nil)
        #expect(!subject.hasObservers)
        #expect(!other.hasObservers)
    }

    @Test("a chain whose source completed releases its objects even if never disposed")
    func completedChainReleasesObjects() {
        let subject = PublishSubject<Int>()
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            _ = subject.map { $0 + canary.value }.subscribe(onNext: { _ in canary.value += 1 })
        }
        #expect(weakCanary != nil)
        subject.onCompleted()
        #expect(weakCanary == nil)
    }
}
