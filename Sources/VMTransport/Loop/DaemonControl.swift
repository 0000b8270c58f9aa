import Posix

/// A Sendable remote control for a ``Daemon``, usable from any thread (tests, a service
/// thread): requests are carried to the loop thread as jobs.
package struct DaemonControl: Sendable {
    private let daemon: LoopConfined<WeakDaemon>
    private let handle: EventLoopHandle

    init(daemon: Daemon, handle: EventLoopHandle) {
        self.daemon = LoopConfined(WeakDaemon(daemon), isOnLoopThread: { handle.isInLoopThread })
        self.handle = handle
    }

    /// Asks for a graceful stop, as SIGTERM does. Returns false when the loop is gone.
    @discardableResult
    package func requestShutdown(reason: String) -> Bool {
        let daemon = self.daemon
        return handle.execute { daemon.value.daemon?.shutdown(reason: reason) }
    }
}

/// A weak reference, so a control outliving its daemon keeps nothing alive.
final class WeakDaemon {
    weak var daemon: Daemon?
    init(_ daemon: Daemon) { self.daemon = daemon }
}
