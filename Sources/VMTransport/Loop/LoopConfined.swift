/// Carries a loop-thread object (the event loop, the daemon, a connection) through an API that
/// requires `Sendable`, such as a job handed to ``Posix/EventLoopHandle``.
///
/// Why this is safe: the wrapped value is created on the loop thread and only *unwrapped* by
/// code that runs on the loop thread (jobs submitted to the loop, scheduler calls that the
/// reactive core's contract confines to the graph's thread, which is the loop thread). Other
/// threads merely retain and release the box, which is atomic. ``value`` asserts the thread in
/// debug builds.
struct LoopConfined<Value: AnyObject>: @unchecked Sendable {
    private let stored: Value
    private let isOnLoopThread: @Sendable () -> Bool

    init(_ value: Value, isOnLoopThread: @escaping @Sendable () -> Bool) {
        stored = value
        self.isOnLoopThread = isOnLoopThread
    }

    /// The value; only on the loop thread.
    var value: Value {
        assert(isOnLoopThread(), "a loop-confined value was used off the loop thread")
        return stored
    }
}
