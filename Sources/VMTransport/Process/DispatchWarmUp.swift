import Dispatch

/// Makes libdispatch create its descriptors now, while the process has plenty.
///
/// libdispatch makes its epoll descriptor, its wake-up eventfd and a timerfd per clock
/// lazily, the first time something needs its event loop: a Swift `Task` (the global
/// executor is libdispatch's, and its Linux thread pool watches itself with a timer), a
/// `Task.sleep`, a `DispatchQueue.asyncAfter`. If descriptors have run out by then (a daemon
/// at its open-file limit) it cannot create them and traps, killing the daemon and every
/// instance (SIGILL in `_dispatch_epoll_init` when the first async action ran
/// while 1,100 connections held every descriptor). ``start()`` does each of those once at
/// start-up; the daemon waits for them (``Pending/wait(timeout:)``) before it accepts anything.
///
/// The jobs run side by side and the daemon does its other start-up work (listener, catalog)
/// while their 1 ms timers run: waited for one after the other, straight away, they were
/// about 2.3 ms of every start (Performance.md, "Start-up").
enum DispatchWarmUp {
    /// The warm-up under way.
    struct Pending: Sendable {
        fileprivate let done: DispatchSemaphore
        fileprivate let jobs: Int

        /// Waits until every job has run; returns `false` if they did not all finish within
        /// `timeout` (from now).
        func wait(timeout: Duration = .seconds(5)) -> Bool {
            let milliseconds = Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            let deadline = DispatchTime.now() + .milliseconds(milliseconds)
            for _ in 0..<jobs where done.wait(timeout: deadline) == .timedOut {
                return false
            }
            return true
        }
    }

    /// Starts a task sleeping on each clock and a dispatch timer on each of dispatch's clocks,
    /// all at once; returns without waiting for them.
    static func start() -> Pending {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            try? await Task.sleep(for: .milliseconds(1))
            done.signal()
        }
        Task.detached {
            try? await Task.sleep(until: SuspendingClock.now.advanced(by: .milliseconds(1)), clock: .suspending)
            done.signal()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { done.signal() }
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(1)) { done.signal() }
        return Pending(done: done, jobs: 4)
    }
}
