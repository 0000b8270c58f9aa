import ReactiveCore
import ReactiveTesting
import Testing

/// A source that has ended is released at its terminal event, as RxSwift's operators do, so a
/// test observable's recorded subscription ends there (what a ported RxTest test expects).
@Suite("Ended sources are released")
struct EndedSourceTests {
    let scheduler = TestScheduler()

    @Test("share unsubscribes from a source that ended")
    func shareReleasesAnEndedSource() {
        let source = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let observer = scheduler.start { source.share(replay: 1) }
        #expect(observer.events == [.next(210, 1), .completed(300)])
        #expect(source.subscriptions == [Subscription(200, 300)])
    }

    @Test("share unsubscribes from a source that failed, and the next subscriber starts over")
    func shareReleasesAFailedSource() {
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let shared = source.share()
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .error(220, TestError())])
        #expect(second.events == [.next(310, 1), .error(320, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test("combineLatest unsubscribes from a source as soon as it completes")
    func combineLatestReleasesACompletedSource() {
        let left = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let right = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(500)])
        // The array form: no operator of its own between combineLatest and each source.
        let observer = scheduler.start { Observable.combineLatest([left, right]) }
        #expect(observer.events == [.next(220, [1, 2]), .next(240, [1, 3]), .completed(500)])
        #expect(left.subscriptions == [Subscription(200, 230)])
        #expect(right.subscriptions == [Subscription(200, 500)])
    }

    @Test("withLatestFrom unsubscribes from the other source when it completes")
    func withLatestFromReleasesACompletedOther() {
        let source = scheduler.createHotObservable([.next(230, 1), .next(260, 2), .completed(300)])
        let other = scheduler.createHotObservable([.next(220, "a"), .completed(245)])
        let observer = scheduler.start { source.withLatestFrom(other) }
        #expect(observer.events == [.next(230, "a"), .next(260, "a"), .completed(300)])
        #expect(other.subscriptions == [Subscription(200, 245)])
    }

    @Test("take(until:) unsubscribes from a trigger that completes without an element")
    func takeUntilReleasesACompletedTrigger() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let trigger = scheduler.createHotObservable([.completed(240)]) as TestableObservable<Int>
        let observer = scheduler.start { source.take(until: trigger) }
        #expect(observer.events == [.next(210, 1), .next(260, 2), .completed(300)])
        #expect(trigger.subscriptions == [Subscription(200, 240)])
    }

    @Test("a hot test observable keeps sending after an error, so a retried subscription sees later events")
    func hotObservableResubscribedAfterError() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .error(220, TestError()), .next(230, 2), .completed(240),
        ])
        let observer = scheduler.start { source.retry(2) }
        #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
    }

    @Test("a test observable delivers nothing to a subscriber after that subscriber's terminal event")
    func testObservableKeepsTheGrammarPerSubscriber() {
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220), .next(230, 2)])
        let observer = scheduler.start { source.asObservable() }
        #expect(observer.events == [.next(210, 1), .completed(220)])
    }
}
