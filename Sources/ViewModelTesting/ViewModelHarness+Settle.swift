import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

/// Async service calls on virtual time: the harness knows every call its view model started
/// with `context.call` / `context.action`, and runs virtual time only when none of them can
/// progress without it.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let chat = ViewModelHarness(Chat.self, args: .init(), services: FakeChat(clock: scheduler.virtualClock), scheduler: scheduler)
/// let results = chat.record(\.results)
/// chat.send(\.query, "swift")
/// await chat.advance(by: .milliseconds(300))
/// #expect(results.events == [.next(0, []), .next(300, ["swift"])])
/// ```
extension ViewModelHarness {
    /// The clock `context.clock` is: the scheduler's virtual clock on a `TestScheduler`.
    /// Give it to fakes, so that they sleep on virtual time.
    public var clock: any Clock<Duration> {
        Self.serviceClock(on: scheduler, calls: calls).clock
    }

    /// How long, in real time, ``settle(sourceLocation:)`` waits for a service call that
    /// neither answers nor sleeps on the virtual clock before it is a test failure (10 s by
    /// default: a task can wait that long for a thread on a loaded machine). Shared with the
    /// children.
    public var grace: Duration {
        get { calls.grace }
        set { calls.grace = newValue }
    }

    /// Runs the scheduler until no work can progress without virtual time passing: every
    /// service call the view model started has delivered its result, or its task sleeps on
    /// the virtual clock. What is due at the current virtual time runs; the clock does not move.
    ///
    /// A call still running after ``grace`` of real time (awaiting a real socket, a real
    /// `Task.sleep`) is a test failure naming the call, recorded at `sourceLocation`; the
    /// result says whether the harness settled.
    @discardableResult
    public func settle(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        guard let scheduler = testScheduler(sourceLocation) else { return false }
        return settled(await VirtualTimeline(scheduler: scheduler, calls: calls).settle(), sourceLocation)
    }

    /// Moves virtual time forward by `duration`, settling (``settle(sourceLocation:)``) at
    /// every due time on the way: a fake sleeping 300 ms answers at exactly 300, a 1 s
    /// timeout fires at exactly 1000. A call that does not settle stops it there (one test
    /// failure, not one per due time).
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard let scheduler = testScheduler(sourceLocation) else { return }
        let target = scheduler.clock + scheduler.ticks(duration)
        settled(await VirtualTimeline(scheduler: scheduler, calls: calls).advance(to: target), sourceLocation)
    }

    /// Whether nothing was `stuck`; a test failure naming the calls otherwise.
    @discardableResult
    private func settled(_ stuck: [String]?, _ sourceLocation: SourceLocation) -> Bool {
        guard let stuck else { return true }
        Issue.record(
            """
            settle: after \(calls.grace) of real time, still running and not sleeping on the \
            virtual clock: \(stuck.joined(separator: ", ")). A fake should sleep on the \
            clock it is given (harness.clock, scheduler.virtualClock), not on real time.
            """,
            sourceLocation: sourceLocation)
        return false
    }

    /// The service calls started and not finished (asleep on the virtual clock or running),
    /// named by where the view model started them.
    public var unfinishedCalls: [String] { calls.unfinished }

    private func testScheduler(_ sourceLocation: SourceLocation) -> TestScheduler? {
        if let scheduler = scheduler as? TestScheduler { return scheduler }
        Issue.record("settle and advance(by:) need the harness to run on a TestScheduler", sourceLocation: sourceLocation)
        return nil
    }

    /// The service clock of a harness on `scheduler`: virtual and tracked on a `TestScheduler`.
    static func serviceClock(on scheduler: any SerialScheduler, calls: ServiceCallTracker) -> ServiceClock {
        guard let scheduler = scheduler as? TestScheduler else { return .continuous }
        return ServiceClock(clock: scheduler.virtualClock, calls: calls)
    }

    /// Makes the scheduler's synchronous `start()` / `advance(...)` say what to use when
    /// virtual time moves while a service call still runs in real time, instead of letting
    /// a timeout fire silently. (It cannot wait for the call: the test's thread, blocked,
    /// may be the one the call's task needs.) Each call is reported once.
    static func guardSynchronousTime(of scheduler: TestScheduler, calls: ServiceCallTracker) {
        let previous = scheduler.willMoveClock
        scheduler.willMoveClock = { [weak calls] time in
            previous?(time)
            guard let running = calls?.reportRunning(), !running.isEmpty else { return }
            Issue.record(
                """
                virtual time moved to \(time) while service calls were still running in real \
                time: \(running.joined(separator: ", ")); their answers would come too late. Use \
                `await harness.settle()` and `await harness.advance(by:)` instead of the \
                scheduler's start()/advance.
                """)
        }
    }
}
