import ReactiveCore
import ReactiveTesting
import Testing

@Suite("share(replay:scope:)")
struct ShareTests {
    let scheduler = TestScheduler()

    @Test("a side effect runs once per element however many subscribers there are")
    func sideEffectRunsOnce() {
        var effects = 0
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let shared = source.do(onNext: { _ in effects += 1 }).share()
        let observers = (0..<3).map { _ in scheduler.createObserver(Int.self) }
        scheduler.scheduleAt(200) { for observer in observers { _ = shared.subscribe(observer) } }
        scheduler.start()
        #expect(effects == 2)
        for observer in observers {
            #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(300)])
        }
        #expect(source.subscriptions == [Subscription(200, 300)])
    }

    @Test("share(replay: 1) replays the latest element to a late subscriber")
    func replayLatest() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let shared = source.share(replay: 1)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(early) }
        scheduler.scheduleAt(230) { _ = shared.subscribe(late) }
        scheduler.start()
        #expect(early.events == [.next(210, 1), .next(220, 2), .next(240, 3)])
        #expect(late.events == [.next(230, 2), .next(240, 3)])
        #expect(source.subscriptions == [Subscription(200)])
    }

    @Test("whileConnected disconnects at zero subscribers and starts over with an empty buffer")
    func whileConnectedStartsOver() {
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let shared = source.share(replay: 1, scope: .whileConnected)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscription: (any Disposable)?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
        scheduler.scheduleAt(225) { subscription?.dispose() }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .next(220, 2)])
        #expect(second.events == [.next(310, 1), .next(320, 2)])
        #expect(source.subscriptions == [Subscription(200, 225), Subscription(300)])
    }

    @Test("forever keeps the buffer across disconnection")
    func foreverKeepsBuffer() {
        let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
        let shared = source.share(replay: 1, scope: .forever)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscription: (any Disposable)?
        scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
        scheduler.scheduleAt(225) { subscription?.dispose() }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        #expect(second.events == [.next(300, 2), .next(310, 1), .next(320, 2)])
    }

    @Test("a shared source that completed is subscribed again by the next subscriber (whileConnected)")
    func resubscribeAfterCompletion() {
        var subscriptions = 0
        let shared = Observable<Int>.deferred {
            subscriptions += 1
            return .just(subscriptions)
        }.share(replay: 1)
        var values: [Int] = []
        _ = shared.subscribe(onNext: { values.append($0) })
        _ = shared.subscribe(onNext: { values.append($0) })
        #expect(values == [1, 2])
        #expect(subscriptions == 2)
    }
}
