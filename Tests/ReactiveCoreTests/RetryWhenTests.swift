import ReactiveCore
import ReactiveTesting
import Testing

@Suite("retry(when:)")
struct RetryWhenTests {
    let scheduler = TestScheduler()

    @Test("each trigger element re-subscribes; a growing timer gives backoff; the trigger's error ends it")
    func exponentialBackoff() {
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let observer = scheduler.start {
            source.retry(when: { errors in
                errors.scan(into: [any Error]()) { $0.append($1) }.flatMap { failures -> Observable<Int> in
                    failures.count > 2
                        ? .error(failures[failures.count - 1])
                        : .timer(.milliseconds(100 << (failures.count - 1)), scheduler: scheduler)
                }
            })
        }
        // Fails at 220, retried at 320; fails at 340, retried at 540; fails at 560 for good.
        #expect(observer.events == [.next(210, 1), .next(330, 1), .next(550, 1), .error(560, TestError())])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(320, 340), Subscription(540, 560)])
    }

    @Test("the trigger's completion completes the result")
    func triggerCompletes() {
        let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let stop = scheduler.createHotObservable([.next(235, ())])
        let observer = scheduler.start { source.retry(when: { errors in errors.map { _ in () }.take(until: stop) }) }
        #expect(observer.events == [.next(210, 1), .next(230, 1), .completed(235)])
        #expect(source.subscriptions == [Subscription(200, 220), Subscription(220, 235)])
    }

    @Test("a source that completes completes the result and releases the trigger")
    func sourceCompletes() {
        let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let trigger = scheduler.createHotObservable([.next(500, ())])
        let observer = scheduler.start { source.retry(when: { _ in trigger }) }
        #expect(observer.events == [.next(210, 1), .completed(220)])
        #expect(trigger.subscriptions == [Subscription(200, 220)])
    }

    @Test("a handler that throws fails the subscription at once")
    func throwingHandler() {
        let source = scheduler.createColdObservable([.next(10, 1)])
        let observer = scheduler.start {
            source.retry(when: { (_: Observable<any Error>) throws -> Observable<Int> in throw TestError() })
        }
        #expect(observer.events == [.error(200, TestError())])
        #expect(source.subscriptions.isEmpty)
    }
}
