import ReactiveCore

/// The clock a view model's services and timers share (``ViewModelContext/clock``), and who
/// watches the service calls it starts: nobody in the daemon, the testing harness under test
/// (it settles async work on virtual time; see ViewModelTesting).
@usableFromInline package struct ServiceClock: Sendable {
    /// The clock handed to the view model.
    package let clock: any Clock<Duration>
    /// Told about every service call ``ViewModelContext`` starts; `nil` when served.
    package let calls: (any ServiceCallTracking)?

    package init(clock: any Clock<Duration>, calls: (any ServiceCallTracking)?) {
        self.clock = clock
        self.calls = calls
    }

    /// The daemon's: real time, nothing watching.
    @usableFromInline package static var continuous: ServiceClock {
        ServiceClock(clock: ContinuousClock(), calls: nil)
    }

    /// An observable running `work` in a `Task` per subscription, its result delivered on
    /// `scheduler` (``Observable/fromAsync(scheduler:_:)``), reported to ``calls`` as the
    /// call named `label`: begun at subscription, ended at its result or its disposal.
    func observe<Result: Sendable>(
        _ label: String, on scheduler: any SerialScheduler, _ work: @escaping @Sendable () async throws -> Result
    ) -> Observable<Result> {
        guard let calls else { return Observable.fromAsync(scheduler: scheduler, work) }
        return Observable.create { observer in
            let call = calls.begin(label)
            let posting = PostingScheduler(base: scheduler) { calls.posted(call) }
            let running = Observable.fromAsync(scheduler: posting) { try await calls.run(call, work) }
                .subscribe(AnyObserver(eventHandler: { event in
                    if event.isStopEvent { calls.end(call) }
                    observer.on(event)
                }))
            return Disposables.create {
                calls.end(call)
                running.dispose()
            }
        }
    }
}

/// Watches the service calls of view models (the testing harness implements it).
///
/// ``begin(_:)`` and ``end(_:)`` are called on the graph's thread; ``run(_:_:)`` inside the
/// call's `Task`; ``posted(_:)`` from that task, just after its result was enqueued.
package protocol ServiceCallTracking: Sendable {
    /// A call named `label` (where the view model started it) was subscribed; returns its id.
    func begin(_ label: String) -> Int
    /// Runs the call's work (the tracker may set task-locals around it).
    func run<Result: Sendable>(_ call: Int, _ work: @Sendable () async throws -> Result) async throws -> Result
    /// The call's result was handed to the scheduler.
    func posted(_ call: Int)
    /// The call delivered its result or was disposed (called once or more).
    func end(_ call: Int)
}

/// A scheduler that runs `didEnqueue` after each job it hands to `base`: the result of a
/// tracked call is known to be waiting in the graph's queue.
private final class PostingScheduler: SerialScheduler {
    let base: any SerialScheduler
    let didEnqueue: @Sendable () -> Void

    init(base: any SerialScheduler, didEnqueue: @escaping @Sendable () -> Void) {
        self.base = base
        self.didEnqueue = didEnqueue
    }

    var now: SchedulerTime { base.now }

    func schedule(_ action: @escaping () -> Void) -> any Disposable {
        base.schedule(action)
    }

    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        base.schedule(after: delay, action)
    }

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        base.enqueue(job)
        didEnqueue()
    }
}
