import JSONCore
import VMProtocol
import Posix
import Synchronization

/// The shared state of one ``VMClient``: pending calls, open subscriptions and monitors, and
/// the bytes waiting to be written.
///
/// Threads: callers (any task) register calls and queue bytes under the mutex; the client's
/// event-loop thread does every read and write and routes what arrives. As everywhere in the
/// package, state changes under the lock and deliveries (resuming a continuation, yielding to
/// a stream) happen after it is released; only the loop thread delivers, so the order of
/// deliveries is the order of the wire.
final class ClientCore: Sendable {
    typealias SubscriptionSink = SubscriptionChannel
    typealias MonitorSink = AsyncThrowingStream<VMMonitorMessage, any Error>.Continuation
    typealias ProgressSink = AsyncStream<VMProgressNotification.Params>.Continuation

    /// What a successful reply opens, registered while the reply is routed so that the
    /// notifications right behind it (O1, O2) find their stream.
    enum Opening: Sendable {
        /// What the subscription watches: with `patches` its last values are kept, and after
        /// vmd restarted the client subscribes to the same instance again (ClientCore+Follow.swift).
        case subscription(SubscriptionSink, SubscriptionTarget)
        case monitor(MonitorSink)
    }

    /// Who waits for a reply.
    enum Waiter: Sendable {
        case caller(CheckedContinuation<JSONValue, any Error>, opening: Opening?)
        /// The `daemon.info` the client sends itself after reconnecting, to learn the boot id.
        case reconnectProbe
        /// The client's own session requests (ClientCore+Session.swift).
        case sessionOpen
        case sessionResume
        /// The `daemon.info` sent after a resume's reply: its reply follows what was queued.
        case resumeSentinel
        /// The `vm.subscribe` the client sends itself after vmd restarted, for a subscription
        /// whose sequence goes on (ClientCore+Follow.swift).
        case resubscribe(SubscriptionSink, FollowedSubscription)
    }

    /// The connection, as far as callers need to know.
    enum Link: Sendable {
        case open
        /// Lost; calls fail with this reason until a reconnect succeeds.
        case down(reason: String)
        case closed

        var failure: VMClientError {
            switch self {
            case .open: return .closed  // not used: an open link does not fail calls
            case .down(let reason): return .disconnected(reason: reason)
            case .closed: return .closed
            }
        }
    }

    struct State {
        var link: Link = .down(reason: "not connected yet")
        var nextID: Int64 = 1
        var pending: [Int64: Waiter] = [:]
        var subscriptions: [String: SubscriptionSink] = [:] {
            didSet { subscriptionsVersion &+= 1 }
        }
        /// Counts the changes of ``subscriptions`` (from 1), so a route remembered by the
        /// reader (OutputNameCache.swift) is known to be stale.
        private(set) var subscriptionsVersion: UInt64 = 1
        /// Per patch subscription (only those: the others cost nothing) and output, the value
        /// delivered last: what the next `patch` applies to (ClientCore+Routing.swift). It
        /// shares storage with the value handed to the application.
        var lastValues: [String: [String: JSONValue]] = [:]
        /// Per patch subscription, the seq of the last `vm.output` it got: a patch after a gap
        /// has no base (the values between were lost).
        var patchSeqs: [String: Int64] = [:]
        var monitors: [String: MonitorSink] = [:]
        /// Per subscription, what it watches, so it can be opened again after a restart.
        var followed: [String: FollowedSubscription] = [:]
        /// The id a ``VMSubscription`` knows → the id the daemon uses now, for subscriptions
        /// opened again after a restart.
        var renamed: [String: String] = [:]
        /// Subscriptions the daemon closed with `"shutdown"` while the client holds a
        /// resumable session: kept until the reconnect tells whether the instance came back.
        var heldAtShutdown: Set<String> = []
        /// The `vm.progress` receivers of pending `vm.execute` calls, by request id.
        var progress: [Int64: ProgressSink] = [:]
        /// Bytes queued by callers and not yet handed to the kernel.
        var outbound: [UInt8] = []
        /// A flush job is queued or running (so callers do not wake the loop twice).
        var flushRequested = false
        /// The open socket and its registration with the loop.
        var socket: FileDescriptor?
        var registration: IORegistration?
        var watchingWritable = false
        var reconnectAttempt = 0
        /// The resumable session, when reconnecting is on and the daemon offers one.
        var session = ClientSessionState()
        /// The subscription values of the read being routed, put into their channels at its end.
        var pendingOutputs = PendingOutputs()
    }

    let location: VMSocketLocation
    let reconnectPolicy: VMReconnectPolicy?
    let loop: EventLoopHandle
    let events: AsyncStream<VMClientEvent>.Continuation
    let state = Mutex(State())

    init(location: VMSocketLocation, reconnectPolicy: VMReconnectPolicy?, loop: EventLoopHandle,
         events: AsyncStream<VMClientEvent>.Continuation) {
        self.location = location
        self.reconnectPolicy = reconnectPolicy
        self.loop = loop
        self.events = events
    }

    // MARK: - Called from any thread

    /// Sends a request and waits for its reply. Cancelling the calling task sends
    /// `$/cancelRequest` for it (the daemon then answers a pending `vm.execute` with
    /// requestCancelled; other methods answer at once anyway).
    /// `progress` receives the call's `vm.progress` notifications, all before it returns.
    func call(_ method: String, _ params: JSONValue?, opening: Opening? = nil, progress: ProgressSink? = nil) async throws -> JSONValue {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            if let progress { state.progress[state.nextID] = progress }
            return state.nextID
        }
        // However the call ends (a reply, a drop, a close), its receiver is let go.
        defer { if progress != nil { _ = state.withLock { $0.progress.removeValue(forKey: id) } } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                let bytes = ClientWire.request(id: id, method: method, params: params)
                let outcome: Result<Bool, VMClientError> = state.withLock { state in
                    guard case .open = state.link else { return .failure(state.link.failure) }
                    state.pending[id] = .caller(continuation, opening: opening)
                    return .success(Self.queue(bytes, in: &state))
                }
                switch outcome {
                case .success(let mustWake):
                    if mustWake { requestFlush() }
                case .failure(let error):
                    Self.finish(opening, throwing: error)
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let stillPending = state.withLock { $0.pending[id] != nil }
            if stillPending { try? notify(CancelRequestNotification.name, ["id": .integer(id)]) }
        }
    }

    /// Queues a notification.
    func notify(_ method: String, _ params: JSONValue?) throws(VMClientError) {
        let bytes = ClientWire.notification(method: method, params: params)
        let mustWake = try state.withLock { (state) throws(VMClientError) -> Bool in
            guard case .open = state.link else { throw state.link.failure }
            return Self.queue(bytes, in: &state)
        }
        if mustWake { requestFlush() }
    }

    /// Forgets a subscription (after `vm.unsubscribe` answered) and ends its sequence.
    func endSubscription(_ id: String) {
        let sink = state.withLock { state in
            Self.forgetFollowing(id, &state)
            state.lastValues[id] = nil
            state.patchSeqs[id] = nil
            state.session.lastSeq[id] = nil
            return state.subscriptions.removeValue(forKey: id)
        }
        sink?.finish()
    }

    /// Forgets a monitor (after `daemon.unmonitor` answered) and ends its sequence.
    func endMonitor(_ id: String) {
        let sink = state.withLock { $0.monitors.removeValue(forKey: id) }
        sink?.finish()
    }

    /// Whether the client is connected now.
    var isConnected: Bool {
        state.withLock { if case .open = $0.link { return true } else { return false } }
    }

    // MARK: - Helpers

    /// Appends to the outbound queue; true when the caller must wake the loop to flush.
    static func queue(_ bytes: [UInt8], in state: inout State) -> Bool {
        state.outbound.append(contentsOf: bytes)
        if state.flushRequested { return false }
        state.flushRequested = true
        return true
    }

    func requestFlush() {
        loop.submit { loop in self.flush(on: loop) }
    }

    static func finish(_ opening: Opening?, throwing error: (any Error)? = nil) {
        switch opening {
        case .subscription(let sink, _)?: sink.finish(throwing: error)
        case .monitor(let sink)?: sink.finish(throwing: error)
        case nil: break
        }
    }
}
