/// An ``EventLoop`` running on its own ``PosixThread``.
///
/// The loop is created on the calling thread, handed to the new thread (`sending`), set up
/// there by `setup`, and run until ``stop()``. Only ``handle`` is visible from outside, which
/// is what keeps the non-Sendable loop confined to its thread.
public final class EventLoopThread: Sendable {
    public let handle: EventLoopHandle
    private let thread: PosixThread

    private init(handle: EventLoopHandle, thread: PosixThread) {
        self.handle = handle
        self.thread = thread
    }

    /// Starts a loop thread. `setup` runs on it before the first iteration (register listeners,
    /// signals, timers there). A throwing `setup` or `run` stops the thread; the error is
    /// passed to `onError` (on the loop thread). `backend` is the loop's readiness backend.
    public static func start(
        backend: EventLoopBackend = .platformDefault,
        setup: sending @escaping (EventLoop) throws -> Void,
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) throws -> EventLoopThread {
        let loop = try EventLoop(backend: backend)
        let handle = loop.handle
        let thread = try PosixThread.spawn {
            loop.handle.claimCurrentThread()
            do {
                try setup(loop)
                try loop.run()
            } catch {
                onError(error)
            }
        }
        return EventLoopThread(handle: handle, thread: thread)
    }

    /// Asks the loop to stop (any thread).
    public func stop() { handle.stop() }

    /// Waits for the loop thread to end. Call at most once, never from the loop thread.
    public func join() { thread.join() }

    /// ``stop()`` then ``join()``.
    public func stopAndJoin() {
        stop()
        join()
    }
}
