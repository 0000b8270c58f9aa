import ReactiveCore
import ReactiveTesting
import Testing

@Suite("timeout on virtual time (1 tick = 1 ms)")
struct TimeoutTests {
    let scheduler = TestScheduler()

    @Test("timeout fails when no element arrives within the due time of the subscription")
    func failsWithoutElement() {
        let source: TestableObservable<Int> = scheduler.createColdObservable([.next(300, 1), .completed(400)])
        let observer = scheduler.start { source.timeout(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events == [.error(300, TimeoutError(dueTime: .milliseconds(100)))])
        #expect(source.subscriptions == [Subscription(200, 300)])
    }

    @Test("timeout restarts its wait after every element")
    func restartsAfterEachElement() {
        let source = scheduler.createHotObservable([
            .next(250, 1), .next(340, 2), .next(430, 3), .next(600, 4),
        ])
        let observer = scheduler.start { source.timeout(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events == [
            .next(250, 1), .next(340, 2), .next(430, 3), .error(530, TimeoutError(dueTime: .milliseconds(100))),
        ])
        #expect(source.subscriptions == [Subscription(200, 530)])
    }

    @Test("timeout forwards completion and errors that come in time, and no error after them")
    func forwardsTerminalEventsInTime() {
        let completing = scheduler.createHotObservable([.next(250, 1), .completed(290)])
        let completed = scheduler.start { completing.timeout(.milliseconds(100), scheduler: scheduler) }
        #expect(completed.events == [.next(250, 1), .completed(290)])

        let second = TestScheduler()
        let failing: TestableObservable<Int> = second.createHotObservable([.error(260, TestError())])
        let failed = second.start { failing.timeout(.milliseconds(100), scheduler: second) }
        #expect(failed.events == [.error(260, TestError())])
    }

    @Test("disposing before the due time cancels the timer and the upstream")
    func disposingCancels() {
        let source: TestableObservable<Int> = scheduler.createColdObservable([.next(500, 1)])
        let observer = scheduler.start(disposed: 250) { source.timeout(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events.isEmpty)
        #expect(source.subscriptions == [Subscription(200, 250)])
    }
}
