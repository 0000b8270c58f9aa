/// Runs work now or later, on the thread that owns a reactive graph.
///
/// All requirements here are called from the graph's thread (see ``Observable``); the
/// scheduled actions run on that thread too, so they may touch the graph.
public protocol Scheduler: AnyObject {
    /// The scheduler's current time.
    var now: SchedulerTime { get }

    /// Runs `action` as soon as the scheduler allows: inline for ``ImmediateScheduler``,
    /// after the current work for a ``SerialScheduler``. Disposing the result before it ran
    /// cancels it.
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> any Disposable

    /// Runs `action` once `delay` has elapsed (a delay of zero or less behaves like
    /// ``schedule(_:)``). Disposing the result before it ran cancels it.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable
}

/// A scheduler that runs its work one job at a time, in order, on its own thread, and that
/// accepts work from any thread.
///
/// The daemon's event loop implements it; so do ``DispatchQueueScheduler`` and
/// `ReactiveTesting.TestScheduler`. `schedule` keeps FIFO order among actions scheduled for
/// the same time, and never runs an action inline.
public protocol SerialScheduler: Scheduler, Sendable {
    /// Queues `job` to run later on the scheduler's own thread. Callable from **any**
    /// thread; jobs from one thread run in the order they were enqueued. This is how async
    /// work hands its results back to the graph.
    func enqueue(_ job: @escaping @Sendable () -> Void)
}
