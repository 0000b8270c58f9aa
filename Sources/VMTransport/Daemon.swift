import JSONRPC
import Posix
import VMServer

/// Serves a ``VMServer/ConnectionHandler`` on a listening Unix socket from one event loop:
/// accepts and vets connections, frames their bytes, writes their output in batches, applies
/// the transport limits, and runs the lifecycle (ready, idle exit, graceful shutdown).
///
/// The module's entry type. VMTransport carries the server's bytes and runs the process around
/// it; its folders by job: `Loop/` (the loop as a scheduler, what a handler may ask of the
/// daemon, remote control), `Connections/` (accept, read, frame, queue and write),
/// `Process/` (start-up, descriptor budget, heap trimming), `Logging/` and `Storage/` (the
/// durable-instance file and its group commit).
///
/// Threading: create it, start it and call it on the loop's thread; it is not Sendable. From
/// other threads use ``control``. There is no thread and no task per connection: every
/// connection is a registration on the one loop (measured: an epoll loop in Swift matches C).
package final class Daemon {
    /// Where the daemon is in its life.
    package enum State: Equatable, Sendable {
        case created, running, stopping, stopped
    }

    package let configuration: DaemonConfiguration
    package let log: DaemonLog
    /// The socket path served (for a socket-activated daemon, the path the rule names).
    package let socketPath: String
    /// The listening socket came from systemd socket activation (its file is never unlinked).
    package let isSocketActivated: Bool
    package private(set) var state = State.created
    /// Called once, on the loop thread, when the daemon has stopped; `vmd` stops the loop here.
    package var onStopped: (() -> Void)?
    /// The durable-instance store's group commit (``DaemonContext/commitBeforeWriting(_:)``,
    /// Daemon+GroupCommit.swift).
    var durability: DurableInstanceStore?
    /// While changes wait for a sync: per connection (by number), the bytes written since
    /// they began to, and how far into its output the running and the last completed sync
    /// reach (in the same count).
    var durableWritten: [UInt64: Int] = [:]
    var coverInFlight: [UInt64: Int] = [:]
    var coverDurable: [UInt64: Int] = [:]

    let loop: EventLoop
    var handler: any ConnectionHandler = NotStarted()
    var connections: [UInt64: Connection] = [:]
    private let listener: UnixListener
    private var listenerRegistration: IORegistration?
    private let notifier: ServiceNotifier?
    private let ownUID: UInt32
    /// A descriptor held in reserve (`/dev/null`): when accepting fails for want of
    /// descriptors, it is closed so the waiting client can be accepted, told `maxConnections`
    /// and closed, then reopened (see `refuseWithSpareDescriptor`).
    private var spareDescriptor: FileDescriptor?
    /// How many refusals since the last "out of file descriptors" line.
    private var refusedSinceExhaustionLog = 0
    /// Per-connection warnings and the descriptor exhaustion are logged at most once every
    /// 10 s each (``logThrottled(_:_:_:)``).
    var logThrottle = LogThrottle()
    /// Gives freed heap back once idle after a burst, and hands the heap's growth to the
    /// prefault thread during one (`nil` with `trimsHeapAfterIdle` unset).
    let heapTrimmer: HeapTrimmer?
    private var nextConnectionNumber: UInt64 = 0
    /// Spare outbound chunks, shared by every connection's queue (released at the heap trim).
    let outboundPool: OutboundChunkPool
    // Unchecked exclusivity on the flush list (`flushQueue`, `spareFlushQueue`,
    // `isFlushScheduled`): touched once per queued connection and once per loop iteration,
    // where the runtime's dynamic access checks were a measurable share of a round trip. It is
    // safe because the daemon is confined to its loop thread and no access to them is in
    // progress while other code runs: `queueFlush` only sets a flag, appends and enqueues,
    // and `flushQueued` swaps the list out before flushing the connections in it (a flush may
    // queue a connection again: that appends to the other, now empty, list).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var flushQueue: [Connection] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var spareFlushQueue: [Connection] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var isFlushScheduled = false
    private var idleTimer: TimerID?
    private var shutdownTimer: TimerID?
    /// One read buffer for every connection: reads happen one at a time on this thread.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// A daemon on `listener` (see ``ListenerSetup``); call ``start(serving:handlesSignals:)`` next.
    package init(
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
        self.ownUID = configuration.ownUIDOverride ?? CurrentProcess.uid
        let pool = OutboundChunkPool()
        self.outboundPool = pool
        self.heapTrimmer = configuration.trimsHeapAfterIdle.map {
            HeapTrimmer(loop: loop, idleDelay: $0, log: log, trim: { pool.releaseSpare(); return Heap.trim() })
        }
        // The heap's growth is populated ahead of the loop by a helper thread (handed over by
        // the trimmer, which counts every frame): kept instances grow the heap by a page every
        // few creates, and the loop thread no longer takes those page faults itself.
        if heapTrimmer != nil { Heap.startPrefaulting() }
        self.readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// The number of open connections.
    package var connectionCount: Int { connections.count }

    /// What a handler may know of and ask of the daemon (made before the handler exists).
    package lazy var context = DaemonContext(daemon: self, scheduler: LoopScheduler(loop: loop))

    /// A Sendable remote control, for other threads.
    package var control: DaemonControl { DaemonControl(daemon: self, handle: loop.handle) }

    // MARK: Lifecycle

    /// Starts accepting connections for `handler`, installs SIGTERM/SIGINT handling when asked,
    /// and tells the service manager the daemon is ready.
    package func start(serving handler: any ConnectionHandler, handlesSignals: Bool) throws {
        precondition(state == .created, "Daemon.start called twice")
        self.handler = handler
        openSpareDescriptor()
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
    package func shutdown(reason: String) {
        guard state == .running else { return }
        state = .stopping
        log.info("stopping", ["reason": .string(reason), "connections": LogValue(connections.count)])
        do {
            try notifier?.stopping(status: "Stopping: \(reason)")
        } catch {
            log.warning("could not notify the service manager", ["error": "\(error)"])
        }
        stopListening()
        if let spareDescriptor { try? spareDescriptor.close() }
        spareDescriptor = nil
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
    func received(_ signal: UnixSignal) {
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
        // Changes made since the last sync (a timer's, say, that nobody was told of) are
        // written before the process ends.
        durability?.drain()
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
                switch refuseWithSpareDescriptor() {
                case .refused: continue
                case .nothingPending: return
                case .noSpare: break
                }
                logExhaustion("cannot accept: out of file descriptors; accepting again in 100 ms", error)
                pauseAccepting(for: .milliseconds(100))
                return
            } catch {
                log.error("accept failed", ["error": "\(error)"])
                return
            }
            admit(descriptor)
        }
    }

    // MARK: Out of descriptors

    private func openSpareDescriptor() {
        guard spareDescriptor == nil else { return }
        spareDescriptor = try? FileDescriptor.open("/dev/null", .readOnly)
    }

    /// Out of descriptors with a client waiting: frees the spare descriptor, accepts the
    /// client into it, answers it with the `maxConnections` error (as over `--max-connections`)
    /// and closes it, then takes the spare back. Without this such clients waited in the
    /// backlog with no answer while the daemon retried every 100 ms.
    /// Says whether a client was refused, nobody was waiting after all (accept allocates the
    /// descriptor before it looks at the queue), or there is no spare (then accepting pauses).
    private func refuseWithSpareDescriptor() -> SpareRefusal {
        guard let spare = spareDescriptor else { return .noSpare }
        spareDescriptor = nil
        try? spare.close()
        defer { openSpareDescriptor() }
        let accepted: FileDescriptor
        do {
            guard let descriptor = try listener.accept() else { return .nothingPending }
            accepted = descriptor
        } catch {
            return .noSpare
        }
        let maxConnections = configuration.limits.maxConnections
        refusedSinceExhaustionLog += 1
        logExhaustion("out of file descriptors: refusing new connections with limitReached maxConnections",
                      SystemError(call: "accept", errno: SystemError.tooManyOpenFiles))
        refuse(accepted, with: TransportErrors.tooManyConnections(maxConnections: maxConnections))
        return .refused
    }

    /// What ``refuseWithSpareDescriptor()`` did.
    private enum SpareRefusal {
        case refused, nothingPending, noSpare
    }

    /// Logs running out of descriptors at most once every 10 s, with how many connections
    /// were refused since the last line (it used to log every 100 ms for as long as it lasted).
    private func logExhaustion(_ message: String, _ error: SystemError) {
        guard logThrottle.admit("out of file descriptors") != nil else { return }
        log.error(message, [
            "error": "\(error)", "connections": LogValue(connections.count),
            "refused": LogValue(refusedSinceExhaustionLog), "next report": "in 10 s at the earliest",
        ])
        refusedSinceExhaustionLog = 0
    }

    /// Writes `error` as a response with `"id": null` to a connection never admitted, and
    /// closes it. A fresh socket's buffer is empty, so the short reply fits; if not, it is lost.
    private func refuse(_ descriptor: FileDescriptor, with error: JSONRPCError) {
        var reply = TransportErrors.encodedResponse(error)
        reply.append(UInt8(ascii: "\n"))
        _ = try? reply.withUnsafeBytes { try descriptor.send($0) }
        try? descriptor.close()
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
            logThrottled(.warning, "connection rejected: its peer credentials cannot be read", ["error": "\(error)"])
            try? descriptor.close()
            return
        }
        guard credentials.uid == ownUID || configuration.allowedUIDs.contains(credentials.uid) else {
            // PROTOCOL.md §12: one permissionDenied error naming the reason, then closed.
            logThrottled(.warning, "connection rejected: peer runs as another user (--allow-uid admits it)", [
                "pid": LogValue(credentials.pid), "uid": LogValue(credentials.uid),
            ])
            refuse(descriptor, with: TransportErrors.peerNotAdmitted(peerUID: credentials.uid, daemonUID: ownUID))
            return
        }
        guard state == .running else {
            try? descriptor.close()
            return
        }
        let maxConnections = configuration.limits.maxConnections
        guard connections.count < maxConnections else {
            logThrottled(.warning, "connection refused: limit maxConnections reached", [
                "limit": LogValue(maxConnections), "pid": LogValue(credentials.pid), "uid": LogValue(credentials.uid),
            ])
            refuse(descriptor, with: TransportErrors.tooManyConnections(maxConnections: maxConnections))
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

extension Daemon {
    /// Logs a line about one connection at most once every 10 s per message (``LogThrottle``);
    /// the next one written says how many were held back.
    func logThrottled(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        guard let held = logThrottle.admit(message) else { return }
        log.log(level, held > 0 ? message + " (and \(held) more like it in the last 10 s, not logged)" : message, fields)
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
