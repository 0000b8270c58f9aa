import Posix
import Synchronization
import VMTransport
import VMServer

/// A ``VMTransport/Daemon`` running on its own loop thread inside the test process, serving a
/// handler the test provides: transport tests need no built binary and can see the log.
package final class InProcessDaemon: Sendable {
    private struct State {
        var control: DaemonControl?
        var startError: String?
        var isStopped = false
    }

    package let socketPath: String
    /// Every log line the daemon wrote (threshold `debug`).
    package let log: LineRecorder
    private let thread: EventLoopThread
    private let shared: SharedState

    private init(socketPath: String, log: LineRecorder, thread: EventLoopThread, shared: SharedState) {
        self.socketPath = socketPath
        self.log = log
        self.thread = thread
        self.shared = shared
    }

    /// Starts a daemon for `configuration` (socket activation off, no signal handling) and
    /// returns once it listens. `makeHandler` runs on the loop thread. With `notifySocket`, the
    /// daemon sends its readiness datagrams there, as to systemd's `NOTIFY_SOCKET`.
    /// The loop's backend is the configuration's, unless the test process's `VMD_EVENT_LOOP`
    /// names one (so `VMD_EVENT_LOOP=poll swift test` covers in-process daemons too).
    package static func start(
        _ configuration: DaemonConfiguration, notifySocket: String? = nil,
        makeHandler: @escaping @Sendable (DaemonContext) -> any ConnectionHandler
    ) throws -> InProcessDaemon {
        let log = LineRecorder()
        let shared = SharedState()
        let daemonLog = DaemonLog(threshold: .debug, format: configuration.logFormat, write: { log.append($0) })
        let backend = EventLoopBackend(rawValue: CurrentProcess.environment["VMD_EVENT_LOOP"] ?? "")
            ?? configuration.eventLoop
        let thread = try EventLoopThread.start(
            backend: backend,
            setup: { loop in
                let opened = try ListenerSetup.open(socketPath: configuration.socketPath, acceptsSocketActivation: false)
                let notifier = try notifySocket.map { try ServiceNotifier(address: UnixSocketAddress(path: $0)) }
                let daemon = Daemon(configuration: configuration, listener: opened.listener, isSocketActivated: false,
                                    loop: loop, log: daemonLog, notifier: notifier)
                let handler = makeHandler(daemon.context)
                // The closure keeps the daemon alive until it stops, then lets it go.
                daemon.onStopped = { [unowned loop] in
                    daemon.onStopped = nil
                    shared.state.withLock { $0.isStopped = true }
                    loop.stop()
                }
                try daemon.start(serving: handler, handlesSignals: false)
                let control = daemon.control
                shared.state.withLock { $0.control = control }
            },
            onError: { error in
                shared.state.withLock {
                    $0.startError = "\(error)"
                    $0.isStopped = true
                }
            })
        let started = Waiting.until(timeout: Waiting.defaultTimeout) {
            shared.state.withLock { $0.control != nil || $0.startError != nil }
        }
        let daemon = InProcessDaemon(socketPath: configuration.socketPath, log: log, thread: thread, shared: shared)
        if let error = daemon.shared.state.withLock({ $0.startError }) {
            thread.join()
            throw InProcessDaemonError(message: error)
        }
        guard started else { throw InProcessDaemonError(message: "the daemon did not start within \(Waiting.defaultTimeout)") }
        return daemon
    }

    /// The daemon has stopped (shutdown, idle exit) and its loop thread is ending.
    package var isStopped: Bool { shared.state.withLock { $0.isStopped } }

    /// Asks for a graceful stop, as SIGTERM would.
    package func requestShutdown(reason: String = "test") {
        let control = shared.state.withLock { $0.control }
        control?.requestShutdown(reason: reason)
    }

    /// Waits (bounded) until the daemon stopped by itself; true if it did.
    package func waitUntilStopped(timeout: Duration = Waiting.defaultTimeout) -> Bool {
        Waiting.until(timeout: timeout) { isStopped }
    }

    /// Stops the daemon and joins its thread. Call once, at the end of a test.
    package func stop() {
        requestShutdown()
        if waitUntilStopped() { thread.join() }
    }

    /// The state the loop thread and the test thread share.
    private final class SharedState: Sendable {
        let state = Mutex(State())
    }
}

/// The in-process daemon failed to start.
package struct InProcessDaemonError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
