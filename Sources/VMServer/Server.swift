import JSONCore
import JSONRPC
import ReactiveCore
import VMProtocol
import ViewModelKit

/// vmd's JSON-RPC dispatch: every method and notification of `Protocol/openrpc.json` over any
/// transport that drives a ``ConnectionHandler``.
///
/// The daemon builds one at start-up and calls it from its loop thread only:
///
/// ```swift
/// let host = ViewModelHost(registry: catalog, scheduler: loopScheduler)
/// let server = Server(
///     host: host, limits: limits,
///     identity: ServerIdentity(version: "0.1.0", bootId: bootId, pid: pid, startedAt: loopScheduler.now,
///                              socketPath: path, slowClient: .coalesce, uid: getuid()),
///     log: { event in log.notice("\(event)") },
///     requestShutdown: { context.requestShutdown() })
/// ```
///
/// ## Where things are
/// This file and ``ConnectionHandler`` (the seam a transport drives) are the module's entry;
/// the rest is grouped by job: `Inbound/` (frames in, the one-pass `vm.send` reader),
/// `Dispatch/` (the method table and each method), `Delivery/` (outbox, output channels,
/// subscriptions, monitors), `Sessions/` (resumable sessions), `Durability/` and `Tapes/`.
///
/// ## Threading
/// Single-threaded like the view models it hosts: every call, in both directions, happens on
/// the host scheduler's thread. Nothing here is Sendable.
///
/// ## Speed
/// Each (instance, output) is observed once (``OutputChannel``); each value is encoded once to
/// bytes; each subscription keeps its notification prefix, so a delivered `vm.output` is a few
/// copies straight into the transport's buffer (the whole path: ViewModelKit's `OutputFanOut`).
package final class Server: ConnectionHandler {
    let host: ViewModelHost
    let scheduler: any SerialScheduler
    let limits: VMLimits
    let identity: ServerIdentity
    let log: (ServerLogEvent) -> Void
    let requestShutdown: () -> Void
    let outbox: Outbox
    let parseOptions: JSONParseOptions
    /// The durable instances and their store (`nil`: `vm.create {durable: true}` is refused).
    let durability: Durability?

    /// (Unchecked exclusivity: looked up once per frame; every access is one statement on
    /// the server's thread that calls out to nothing.) Any change to the table forgets
    /// ``lastSession``: a connection may now map to another session (`session.resume`).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var sessions: [ConnectionID: Session] = [:] {
        didSet { lastSession = nil }
    }
    /// The session of the last frame received (``frameReceived(_:on:)``), valid until the
    /// table changes. (Unchecked exclusivity, like ``sessions``.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var lastSession: Session?
    /// Resumable sessions, and the detached ones (PROTOCOL.md §18).
    var sessionBook = SessionBook()
    var nextSubscription: UInt64 = 0
    var nextMonitor: UInt64 = 0
    /// Set by ``shutdown()``: instance calls answer `shuttingDown` from then on.
    var isShuttingDown = false
    /// The last plain `vm.send`'s instance and input (Server+SendFastPath.swift). (Unchecked
    /// exclusivity: read and written only on the server's thread, each access one statement
    /// that calls no code that could reach the server again.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var sendRoute = SendRoute()
    /// Whether the last frame was a plain `vm.send`: the typed reader then goes first
    /// (`Server.receive`, Server+Frames.swift). (Unchecked exclusivity: read and written
    /// only on the server's thread, each access one statement that calls no other code.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var expectsPlainSend = true
    /// Whether every instance `vm.create` makes is recorded from its creation, as with
    /// `record: true` (`vmd --record-all`, for development; Server+Tapes.swift). A `let`:
    /// `vm.create` reads it without an exclusivity check.
    package let recordsEveryInstance: Bool
    /// `vm.types` without `type`, encoded once.
    lazy var allTypesResult: [UInt8] = VMTypesMethod.result(types: host.types.map(\.jsonValue)).encodedBytes()

    /// A server for `host`'s view models.
    ///
    /// - Parameters:
    ///   - host: creates and destroys instances; the server takes over its `onClose` and sets its
    ///     `maxInstances` from `limits`.
    ///   - scheduler: runs timers (`timeoutMs`) on the loop thread; defaults to the host's.
    ///   - limits: every limit in force (the transport enforces frame size, connections and
    ///     read backpressure; the server depth, instances, subscriptions, batch items and
    ///     overflow).
    ///   - identity: what `daemon.info` reports, and the uid the same-user-only methods admit.
    ///   - log: events for the daemon's log (overflow, slow-reader disconnects, …).
    ///   - requestShutdown: called after `daemon.shutdown`'s reply is queued; the daemon then
    ///     stops as on SIGTERM (and calls ``shutdown()``).
    ///   - store: where durable instances are kept; call ``restoreDurableInstances()`` before
    ///     serving. Without one, `vm.create {durable: true}` answers `invalidParams`.
    ///   - recordsEveryInstance: records every instance `vm.create` makes, as `record: true`.
    package init(
        host: ViewModelHost,
        scheduler: (any SerialScheduler)? = nil,
        limits: VMLimits = VMLimits(),
        identity: ServerIdentity,
        log: @escaping (ServerLogEvent) -> Void = { _ in },
        requestShutdown: @escaping () -> Void = {},
        store: (any InstanceStore)? = nil,
        recordsEveryInstance: Bool = false
    ) {
        self.host = host
        self.scheduler = scheduler ?? host.scheduler
        self.limits = limits
        self.identity = identity
        self.log = log
        self.requestShutdown = requestShutdown
        self.outbox = Outbox(maxOutboundBytes: limits.maxOutboundBytes, log: log)
        self.parseOptions = JSONParseOptions(maxDepth: limits.maxDepth)
        self.recordsEveryInstance = recordsEveryInstance
        host.maxInstances = limits.maxInstances
        durability = store.map { Durability(store: $0, host: host) }

        // A child's id, given by its parent's view model, follows the rule clients' ids do.
        host.childIDRule = ("string matching \(VMCreateMethod.instanceIDPattern)", VMCreateMethod.isValidInstanceID)
        // Captured inside a struct, by value: a `[weak self]` capture lives in a box whose every
        // read is an exclusivity check, once per destroyed instance.
        let closer = WeakServer(server: self)
        host.onClose = { instance, reason in closer.server?.instanceClosed(instance, reason: reason) }
        outbox.redactor = { [weak self] message in self?.redactingTokens(in: message) }
    }

    // MARK: ConnectionHandler

    package func connectionOpened(_ id: ConnectionID, peer: PeerIdentity, sink: any ConnectionSink) {
        sessions[id] = Session(id: id, peer: peer, sink: sink)
    }

    package func frameReceived(_ frame: UnsafeRawBufferPointer, on id: ConnectionID) {
        // Frames come in runs per connection: the last one's session saves the table lookup
        // (a closed session is never reused: its id then misses the table as before).
        if let last = lastSession, last.id == id, last.isOpen {
            receive(frame, on: last)
            return
        }
        guard let session = sessions[id], session.isOpen else { return }
        lastSession = session
        receive(frame, on: session)
    }

    package func connectionDrained(_ id: ConnectionID) {
        guard let session = sessions[id], session.isOpen else { return }
        let losses = session.lossOrder
        session.lossOrder = []
        for subscription in losses { subscription.reportOverflow() }
    }

    package func connectionClosed(_ id: ConnectionID) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        // A resumable session waits for `session.resume` (Server+Sessions.swift).
        if detachIfResumable(session) { return }
        release(session)
    }

    /// Releases everything `session` owns, as when a connection closes without a session.
    func release(_ session: Session) {
        session.isOpen = false
        // Pending executions are cancelled without a reply: nobody is there to read it.
        let pending = session.pendingExecutions
        session.pendingExecutions = []
        for execution in pending { _ = execution.cancelExecution() }
        // Subscriptions and monitors end silently.
        for subscription in session.subscriptions.values { detach(subscription) }
        session.subscriptions = [:]
        session.lossOrder = []
        if !session.monitors.isEmpty {
            outbox.monitors.removeAll { $0.session === session }
            session.monitors = [:]
        }
        // Its connection-scoped instances go; their other subscribers hear `ownerDisconnected`.
        for instance in session.ownedInstances {
            try? host.destroy(instance, reason: .ownerDisconnected)
        }
        session.ownedInstances = []
    }

    package func shutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        // Every subscription hears `vm.closed` with reason `shutdown`; pending executions are
        // answered by the kit with `unknownInstance`, which the server turns into `shuttingDown`.
        host.destroyAll(reason: .shutdown)
        durability?.close()
        expireDetachedSessions()
    }

    /// A call of `id` still waits for its answer (a `vm.execute`), or `id` opened a subscription
    /// or monitor that is still open. Instances it owns do not count: nobody can use them
    /// through this connection once its peer stops writing.
    package func hasPendingWork(on id: ConnectionID) -> Bool {
        guard let session = sessions[id] else { return false }
        return !session.pendingExecutions.isEmpty || !session.subscriptions.isEmpty || !session.monitors.isEmpty
    }

    // MARK: Introspection (tests, the daemon's log)

    /// Open connections.
    package var connectionCount: Int { sessions.count }

    /// Open subscriptions over all connections.
    package var subscriptionCount: Int { sessions.values.reduce(0) { $0 + $1.subscriptions.count } }
}

/// A weak reference to a server, for the closures its host keeps.
private struct WeakServer {
    weak var server: Server?
}
