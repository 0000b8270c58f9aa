import ReactiveCore
import Synchronization

extension TestScheduler {
    /// A Swift `Clock` on this scheduler's virtual time: hand it to fakes, so that a fake
    /// service that sleeps 300 ms answers at exactly virtual time 300.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let search = FakeSearch(clock: scheduler.virtualClock, latency: .milliseconds(300))
    /// ```
    public var virtualClock: VirtualClock { VirtualClock(scheduler: self) }
}

/// A `Clock` whose ``now`` is a ``TestScheduler``'s virtual time and whose
/// ``sleep(until:tolerance:)`` resumes when the test moves virtual time to the deadline
/// (``TestScheduler/advance(by:)``, ``TestScheduler/start()``, or a harness's `advance(by:)`).
///
/// A sleep is registered with the scheduler through ``TestScheduler/enqueue(_:)``, so it may
/// start on any thread; it resumes on the scheduler's thread when virtual time reaches the
/// deadline (rounded up to whole ticks). Cancelling the sleeping task ends the sleep at once
/// with `CancellationError`, as `Task.sleep` does.
public struct VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since virtual time zero.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Time since virtual time zero.
        public var offset: Duration

        /// The instant `offset` after virtual time zero.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "virtual \(offset)" }
    }

    /// The scheduler whose time this clock reads.
    public let scheduler: TestScheduler

    /// The clock of `scheduler`'s virtual time.
    public init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// The scheduler's current virtual time (readable from any thread).
    public var now: Instant {
        Instant(offset: scheduler.resolution * scheduler.publishedClock)
    }

    /// One tick of the scheduler.
    public var minimumResolution: Duration { scheduler.resolution }

    /// Suspends until virtual time reaches `deadline`; throws `CancellationError` if the task
    /// is cancelled first (or already was).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let tick = scheduler.ticks(deadline.offset)
        let sleeper = VirtualSleeper(watcher: VirtualClock.sleepWatcher)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.arm(continuation) else { return }
                let scheduler = scheduler
                scheduler.enqueue {
                    scheduler.scheduleAt(tick) { sleeper.finish(with: .success(())) }
                }
                // Only now: a watcher that sees the sleep knows its wake-up is in the inbox.
                sleeper.didEnqueueWakeUp()
            }
        } onCancel: {
            sleeper.finish(with: .failure(CancellationError()))
        }
    }

    /// Who is told when a task sleeps on a virtual clock and when it wakes: the testing
    /// harness sets it around each service call it tracks, to know when every call is
    /// waiting for virtual time.
    @TaskLocal package static var sleepWatcher: (any VirtualSleepWatcher)?
}

/// Told about the sleeps of the task it is installed in (``VirtualClock/sleepWatcher``).
package protocol VirtualSleepWatcher: Sendable {
    /// A sleep began, and its wake-up is in the scheduler's inbox (or already scheduled).
    func didSuspend()
    /// That sleep ended (woken by virtual time, or cancelled); called before the task resumes.
    func didResume()
}

/// One sleep: resumed exactly once, by virtual time or by cancellation, whichever comes first.
final class VirtualSleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var isSuspended = false
        var isFinished = false
    }

    private let state = Mutex(State())
    private let watcher: (any VirtualSleepWatcher)?

    init(watcher: (any VirtualSleepWatcher)?) {
        self.watcher = watcher
    }

    /// Keeps `continuation` until the sleep ends; `false` (and the continuation resumed with
    /// `CancellationError`) when the task was cancelled before it got here.
    func arm(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let armed = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.continuation = continuation
            return true
        }
        if !armed { continuation.resume(throwing: CancellationError()) }
        return armed
    }

    /// Tells the watcher the task sleeps, unless the sleep already ended. (The watcher is
    /// called under the lock, so that its suspend and resume are never seen out of order.)
    func didEnqueueWakeUp() {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.isSuspended = true
            watcher?.didSuspend()
        }
    }

    /// Ends the sleep with `result`, unless it already ended.
    func finish(with result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if state.isSuspended { watcher?.didResume() }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
