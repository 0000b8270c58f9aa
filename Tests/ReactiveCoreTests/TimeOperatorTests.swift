import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Time operators on virtual time (1 tick = 1 ms)")
struct TimeOperatorTests {
    let scheduler = TestScheduler()

    @Test("debounce emits after a quiet period and restarts on each element")
    func debounce() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(240, 2), .next(300, 3), .next(400, 4), .completed(420),
        ])
        let observer = scheduler.start { source.debounce(.milliseconds(50), scheduler: scheduler) }
        #expect(observer.events == [.next(290, 2), .next(350, 3), .next(420, 4), .completed(420)])
    }

    @Test("throttle emits the first element at once and the latest at the end of the window")
    func throttleLatest() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .completed(400),
        ])
        let observer = scheduler.start { source.throttle(.milliseconds(50), scheduler: scheduler) }
        #expect(observer.events == [.next(210, 1), .next(260, 3), .next(310, 4), .completed(400)])
    }

    @Test("throttle drops the pending element when a newer one is sent at the end of the window")
    func throttleDropsStalePending() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(410, 3), .completed(600)])
        let observer = scheduler.start { source.throttle(.milliseconds(200), scheduler: scheduler) }
        #expect(observer.events == [.next(210, 1), .next(410, 3), .completed(600)])
    }

    @Test("throttle settles on the newest element when one arrives after the window closed")
    func throttleSettlesOnNewest() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(420, 3), .completed(700)])
        let observer = scheduler.start { source.throttle(.milliseconds(200), scheduler: scheduler) }
        #expect(observer.events == [.next(210, 1), .next(410, 2), .next(610, 3), .completed(700)])
    }

    @Test("throttle without latest drops elements inside the window")
    func throttleFirstOnly() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(270, 3), .completed(400)])
        let observer = scheduler.start { source.throttle(.milliseconds(50), latest: false, scheduler: scheduler) }
        #expect(observer.events == [.next(210, 1), .next(270, 3), .completed(400)])
    }

    @Test("delay shifts elements and completion but forwards errors at once")
    func delay() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.start { source.delay(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events == [.next(310, 1), .next(320, 2), .completed(330)])
        let second = TestScheduler()
        let failing: TestableObservable<Int> = second.createHotObservable([.next(210, 1), .error(220, TestError())])
        let failed = second.start { failing.delay(.milliseconds(100), scheduler: second) }
        #expect(failed.events == [.error(220, TestError())])
    }

    @Test("observe(on:) defers delivery to the scheduler and keeps order")
    func observeOn() {
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let subscription = subject.observe(on: scheduler).subscribe(observer)
        subject.onNext(1)
        subject.onNext(2)
        #expect(observer.events.isEmpty)
        scheduler.advance()
        #expect(observer.values == [1, 2])
        subject.onNext(3)
        subscription.dispose()
        scheduler.advance()
        #expect(observer.values == [1, 2])
    }

    @Test("subscribe(on:) subscribes when the scheduler runs")
    func subscribeOn() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            let subscription = source.subscribe(on: scheduler).subscribe(observer)
            scheduler.scheduleAt(250) { subscription.dispose() }
        }
        scheduler.start()
        #expect(observer.values == [1])
        #expect(source.subscriptions == [Subscription(200, 250)])
    }

    @Test("with simulatesProcessingDelay, work scheduled for now runs one tick later, as in RxTest")
    func processingDelay() {
        let rxTestLike = TestScheduler(simulatesProcessingDelay: true)
        let source = rxTestLike.createHotObservable([.next(210, 1), .completed(220)])
        let observer = rxTestLike.start { source.observe(on: rxTestLike) }
        #expect(observer.events == [.next(211, 1), .completed(221)])
        let unchanged = scheduler.start { scheduler.createHotObservable([.next(210, 1)]).observe(on: scheduler) }
        #expect(unchanged.events == [.next(210, 1)])
        // Jobs enqueued from other threads still run when drained, without moving the clock.
        let trace = ThreadingTests.Trace()
        rxTestLike.enqueue { trace.record(0, 0) }
        rxTestLike.drainEnqueued()
        #expect(trace.all.count == 1)
    }

    @Test("virtual time rounds delays up to whole ticks")
    func ticks() {
        #expect(scheduler.ticks(.microseconds(1)) == 1)
        #expect(scheduler.ticks(.milliseconds(300)) == 300)
        #expect(scheduler.ticks(.zero) == 0)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.clock == 1000)
        #expect(scheduler.now == SchedulerTime(nanoseconds: 1_000_000_000))
    }
}
