import Dispatch

/// Runs scheduled actions at once, inline, on the calling thread.
///
/// Delayed actions block the calling thread for the delay, then run: use it for tests of
/// non-timed operators or command-line tools, never on the daemon's event loop.
public final class ImmediateScheduler: Scheduler, Sendable {
    /// The shared instance (it has no state).
    public static let instance = ImmediateScheduler()

    /// A scheduler; every instance behaves the same.
    public init() {}

    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        action()
        return NopDisposable()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        if delay > .zero {
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .nanoseconds(Int(clamping: delay.totalNanoseconds)))
        }
        action()
        return NopDisposable()
    }
}
