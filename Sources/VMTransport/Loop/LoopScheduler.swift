import Posix
import ReactiveCore

/// The daemon's event loop as ReactiveCore's ``ReactiveCore/SerialScheduler``: the whole
/// reactive graph (every view model, every subscription) lives on the loop thread, and async
/// services hand their results back with ``enqueue(_:)`` from any thread.
///
/// `schedule` runs the action after the current loop callback (never inline), in FIFO order;
/// `schedule(after:)` uses the loop's timer heap (monotonic clock). Both are called on the
/// loop thread, as the reactive core's contract requires of every `Scheduler` call.
package final class LoopScheduler: SerialScheduler {
    private let loop: LoopConfined<EventLoop>
    private let handle: EventLoopHandle

    /// A scheduler on `loop`; create it on the loop's thread.
    package init(loop: EventLoop) {
        let handle = loop.handle
        self.handle = handle
        self.loop = LoopConfined(loop, isOnLoopThread: { handle.isInLoopThread })
    }

    package var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    package func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let job = ScheduledJob(action)
        loop.value.enqueue { job.run() }
        return job
    }

    @discardableResult
    package func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        guard delay > .zero else { return schedule(action) }
        let eventLoop = loop.value
        let timer = eventLoop.schedule(after: delay, action)
        return TimerDisposable(loop: eventLoop, timer: timer)
    }

    package func enqueue(_ job: @escaping @Sendable () -> Void) {
        handle.execute(job)
    }
}

/// An action scheduled on the loop that disposal cancels before it runs.
private final class ScheduledJob: Disposable {
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) { self.action = action }

    func run() {
        guard let action else { return }
        self.action = nil
        action()
    }

    func dispose() { action = nil }
}

/// Cancels a loop timer (on the loop thread, where disposal happens).
private struct TimerDisposable: Disposable {
    let loop: EventLoop
    let timer: TimerID

    func dispose() { loop.cancel(timer) }
}
