import Posix
import VMServer

/// Serves a ``VMServer/ConnectionHandler`` on a listening Unix socket from one event loop:
/// accepts and vets connections, frames their bytes, writes their output in batches, applies
/// the transport limits, and runs the lifecycle (ready, idle exit, graceful shutdown).
///
/// Threading: create it, start it and call it on the loop's thread; it is not Sendable. From
/// other threads use ``control``. There is no thread and no task per connection: every
/// connection is a registration on the one loop (FACTS.md: an epoll loop in Swift matches C).
public final class Daemon {
    /// Where the daemon is in its life.
    public enum State: Equatable, Sendable {
        case created, running, stopping, stopped
    }

    public let configuration: DaemonConfiguration
    public let log: DaemonLog
    /// The socket path served (for a socket-activated daemon, the path the rule names).
    public let socketPath: String
    /// The listening socket came from systemd socket activation (its file is never unlinked).
    public let isSocketActivated: Bool
    public private(set) var state = State.created
    /// Called once, on the loop thread, when the daemon has stopped; `vmd` stops the loop here.
    public var onStopped: (() -> Void)?

    let loop: EventLoop
    var handler: any ConnectionHandler = NotStarted()
    var connections: [UInt64: Connection] = [:]
    private let listener: UnixListener
    private var listenerRegistration: IORegistration?
    private let notifier: ServiceNotifier?
    private let ownUID: UInt32
    private var nextConnectionNumber: UInt64 = 0
    var flushQueue: [Connection] = []
    var spareFlushQueue: [Connection] = []
    var isFlushScheduled = false
    private var idleTimer: TimerID?
    private var shutdownTimer: TimerID?
    /// One read buffer for every connection: reads happen one at a time on this thread.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// A daemon on `listener` (see ``ListenerSetup``); call ``start(serving:handlesSignals:)`` next.
    public init(
        configuration: DaemonConfiguration, listener: UnixListener, isSocketActivated: Bool,
        loop: EventLoop, log: DaemonLog, notifier: ServiceNotifier? = nil
    ) {
        self.configuration = configuration
        self.listener = listener
        self.isSocketActivated = isSocketActivated
        self.socketPath = configuration.socketPath
        self.loop = loop
        self.log = log
        self.notifier = notifier
        self.ownUID = CurrentProcess.uid
        self.readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// The number of open connections.
    public var connectionCount: Int { connections.count }

    /// What a handler may know of and ask of the daemon (made before the handler exists).
    public lazy var context = DaemonContext(daemon: self, scheduler: LoopScheduler(loop: loop))

    /// A Sendable remote control, for other threads.
    public var control: DaemonControl { DaemonControl(daemon: self, handle: loop.handle) }

    // MARK: Lifecycle

    /// Starts accepting connections for `handler`, installs SIGTERM/SIGINT handling when asked,
    /// and tells the service manager the daemon is ready.
    public func start(serving handler: any ConnectionHandler, handlesSignals: Bool) throws {
        precondition(state == .created, "Daemon.start called twice")
        self.handler = handler
        listenerRegistration = try loop.register(listener.descriptor, interest: .readable) { [unowned self] _ in
            self.acceptPending()
        }
        if handlesSignals {
            try loop.onSignal(.terminate) { [unowned self] in self.received(.terminate) }
            try loop.onSignal(.interrupt) { [unowned self] in self.received(.interrupt) }
        }
        state = .running
        log.info("listening", [
            "socket": .string(socketPath),
            "source": .string(isSocketActivated ? "socket activation" : configuration.socketPathSource),
        ])
        do {
            try notifier?.ready(status: "Listening on \(socketPath)")
        } catch {
            log.warning("could not notify the service manager", ["error": "\(error)"])
        }
        armIdleTimer()
    }

    /// Stops gracefully: stop accepting (removing the socket file unless systemd owns it), let
    /// the handler tell subscribers, flush every connection within the grace period, close all,
    /// then ``onStopped``. Later calls do nothing.
    public func shutdown(reason: String) {
        guard state == .running else { return }
        state = .stopping
        log.info("stopping", ["reason": .string(reason), "connections": LogValue(connections.count)])
        do {
            try notifier?.stopping(status: "Stopping: \(reason)")
        } catch {
            log.warning("could not notify the service manager", ["error": "\(error)"])
        }
        stopListening()
        cancelIdleTimer()
        handler.shutdown()
        for connection in Array(connections.values) {
            close(connection, reason: "daemon stopping")
        }
        shutdownTimer = loop.schedule(after: configuration.shutdownGrace) { [weak self] in
            self?.abandonRemainingConnections()
        }
        if connections.isEmpty {
            loop.enqueue { [weak self] in self?.finishStopping() }
        }
    }

    /// SIGTERM or SIGINT: a graceful stop; a second SIGINT while stopping gives up on flushing.
    func received(_ signal: Signal) {
        if signal == .interrupt, state == .stopping {
            log.notice("second SIGINT: closing every connection now")
            abandonRemainingConnections()
        } else {
            shutdown(reason: signal.description)
        }
    }

    private func abandonRemainingConnections() {
        for connection in Array(connections.values) {
            terminate(connection, reason: "shutdown grace period over with \(connection.pendingBytes) bytes unsent")
        }
        finishStopping()
    }

    private func finishStopping() {
        guard state == .stopping else { return }
        state = .stopped
        if let shutdownTimer { loop.cancel(shutdownTimer) }
        shutdownTimer = nil
        log.info("stopped")
        onStopped?()
    }

    private func stopListening() {
        if let listenerRegistration { loop.deregister(listenerRegistration) }
        listenerRegistration = nil
        do {
            try listener.close()
            if listener.removesPathOnClose { log.debug("socket file removed", ["socket": .string(socketPath)]) }
        } catch {
            log.warning("could not remove the socket file", ["socket": .string(socketPath), "error": "\(error)"])
        }
    }

    // MARK: Idle exit

    /// Arms the idle timer when nothing is connected (`--exit-when-idle`).
    func armIdleTimer() {
        guard let idle = configuration.exitWhenIdle, state == .running, connections.isEmpty, idleTimer == nil else {
            return
        }
        idleTimer = loop.schedule(after: idle) { [weak self] in
            guard let self else { return }
            self.idleTimer = nil
            self.shutdown(reason: "no connection for \(idle) (--exit-when-idle)")
        }
    }

    func cancelIdleTimer() {
        if let idleTimer { loop.cancel(idleTimer) }
        idleTimer = nil
    }

    /// The connection table changed size.
    func connectionsChanged() {
        guard connections.isEmpty else { return }
        switch state {
        case .running: armIdleTimer()
        case .stopping: finishStopping()
        case .created, .stopped: break
        }
    }

    // MARK: Accepting

    private func acceptPending() {
        // Bounded per wakeup so a connection storm cannot starve established connections;
        // the listener is level-triggered, so the rest are accepted on the next iteration.
        for _ in 0..<64 {
            let descriptor: FileDescriptor
            do {
                guard let accepted = try listener.accept() else { return }
                descriptor = accepted
            } catch let error as SystemError
                where error.errno == SystemError.tooManyOpenFiles || error.errno == SystemError.tooManyOpenFilesInSystem
            {
                log.error("cannot accept: out of file descriptors; accepting again in 100 ms",
                          ["error": "\(error)", "connections": LogValue(connections.count)])
                pauseAccepting(for: .milliseconds(100))
                return
            } catch {
                log.error("accept failed", ["error": "\(error)"])
                return
            }
            admit(descriptor)
        }
    }

    private func pauseAccepting(for delay: Duration) {
        guard let registration = listenerRegistration else { return }
        try? loop.modify(registration, interest: [])
        loop.schedule(after: delay) { [weak self] in
            guard let self, self.state == .running, let registration = self.listenerRegistration else { return }
            try? self.loop.modify(registration, interest: .readable)
        }
    }

    private func admit(_ descriptor: FileDescriptor) {
        let credentials: PeerCredentials
        do {
            credentials = try PeerCredentials(of: descriptor)
        } catch {
            log.warning("connection rejected: its peer credentials cannot be read", ["error": "\(error)"])
            try? descriptor.close()
            return
        }
        guard credentials.uid == ownUID || configuration.allowedUIDs.contains(credentials.uid) else {
            // PROTOCOL.md §12: closed at once, without a byte written.
            log.warning("connection rejected: peer runs as another user (--allow-uid admits it)", [
                "pid": LogValue(credentials.pid), "uid": LogValue(credentials.uid),
            ])
            try? descriptor.close()
            return
        }
        guard state == .running else {
            try? descriptor.close()
            return
        }
        let maxConnections = configuration.limits.maxConnections
        guard connections.count < maxConnections else {
            log.warning("connection refused: limit maxConnections reached", [
                "limit": LogValue(maxConnections), "pid": LogValue(credentials.pid), "uid": LogValue(credentials.uid),
            ])
            var reply = TransportErrors.encodedResponse(TransportErrors.tooManyConnections(maxConnections: maxConnections))
            reply.append(UInt8(ascii: "\n"))
            // A fresh socket's buffer is empty, so this short reply fits; if not, it is lost.
            _ = try? reply.withUnsafeBytes { try descriptor.send($0) }
            try? descriptor.close()
            return
        }
        nextConnectionNumber += 1
        let id = ConnectionID(nextConnectionNumber)
        let peer = PeerIdentity(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        let connection = Connection(id: id, peer: peer, descriptor: descriptor, daemon: self)
        do {
            connection.registration = try loop.register(descriptor, interest: .readable) { [unowned self] events in
                self.handleEvents(events, on: connection)
            }
        } catch {
            log.error("cannot watch a new connection", ["error": "\(error)"])
            try? descriptor.close()
            return
        }
        connections[id.rawValue] = connection
        cancelIdleTimer()
        log.info("connection opened", [
            "connection": .string(id.description), "pid": LogValue(peer.pid), "uid": LogValue(peer.uid),
        ])
        handler.connectionOpened(id, peer: peer, sink: connection)
    }
}

/// The handler before ``Daemon/start(serving:handlesSignals:)``: nothing can connect yet, so
/// nothing ever calls it; it spares every call site an optional.
private final class NotStarted: ConnectionHandler {
    func connectionOpened(_ id: ConnectionID, peer: PeerIdentity, sink: any ConnectionSink) { sink.close() }
    func frameReceived(_ frame: UnsafeRawBufferPointer, on id: ConnectionID) {}
    func connectionDrained(_ id: ConnectionID) {}
    func connectionClosed(_ id: ConnectionID) {}
    func shutdown() {}
}
