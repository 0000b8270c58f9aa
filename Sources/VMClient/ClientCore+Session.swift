import JSONCore
import Posix
import VMProtocol

/// Sessions that survive a reconnect (`session.open`, `session.resume`, `session.close`;
/// Protocol/PROTOCOL.md). With a ``VMReconnectPolicy`` the client opens a session when it
/// connects. After a drop it keeps its pending calls, subscriptions and monitors, and on the
/// new connection asks `daemon.info` first: the same `bootId` → `session.resume`; another →
/// ``VMClientEvent/daemonRestarted(bootID:)``, and each subscription is opened again on the
/// instance it watched (ClientCore+Follow.swift); `unknownSession` →
/// ``VMClientEvent/sessionExpired(session:)``. The link opens to callers only once that is
/// settled, so nothing is sent before `session.resume` (the daemon refuses it on a
/// connection that already owns something).
extension ClientCore {
    /// The app error code of `unknownSession`.
    static let unknownSessionCode = VMErrorCode.unknownSession.number

    /// Opens a resumable session on the connection just made (from ``VMClient/connect(to:options:)``,
    /// before the client is handed out). A daemon without sessions, or one whose grace is 0,
    /// leaves the client as it was: reconnecting then re-creates nothing.
    func openSession(bootID: String?) async {
        state.withLock { state in
            state.session.wanted = true
            state.session.bootID = bootID
        }
        guard let result = try? await call(SessionOpenMethod.name, SessionOpenMethod.Params().jsonValue) else { return }
        state.withLock { Self.adoptSession(result, &$0) }
    }

    /// The session `session.open` answered, resumable when its grace is above 0.
    static func adoptSession(_ result: JSONValue, _ state: inout State) {
        guard let opened = try? SessionOpenMethod.Result(json: result), opened.graceMs > 0 else {
            state.session.token = nil
            return
        }
        state.session.token = opened.token
        state.session.id = opened.session
    }

    /// The id of the resumable session, `nil` when there is none.
    var sessionID: String? {
        state.withLock { $0.session.isResumable ? $0.session.id : nil }
    }

    /// Routes the reply to one of the client's own handshake requests.
    static func decideSession(
        _ waiter: Waiter, _ outcome: Result<JSONValue, VMRemoteError>, _ state: inout State,
        into deliveries: inout [Delivery]
    ) {
        switch waiter {
        case .caller:
            return
        case .resubscribe(let sink, let followed):
            decideResubscribe(sink, followed, outcome, &state, into: &deliveries)
        case .sessionOpen:
            if case .success(let result) = outcome { adoptSession(result, &state) }
        case .reconnectProbe:
            let bootID = (try? outcome.get())?["bootId"]?.stringValue
            if state.session.isResumable, state.session.phase == .probing {
                // The resume was refused: a new boot id says why.
                let expired = state.session.id
                if let bootID, let known = state.session.bootID, bootID != known {
                    // Subscriptions go on where their instance came back (a durable one);
                    // the rest of what the session held ends.
                    let following = takeFollowed(&state)
                    endHeld(subscriptionReason: "daemonRestarted", failure: "the daemon restarted", &state, into: &deliveries)
                    state.session.reset()
                    deliveries.append(.event(.daemonRestarted(bootID: bootID)))
                    finishReconnect(bootID: bootID, &state, into: &deliveries)
                    resubscribe(following, &state, into: &deliveries)
                    return
                } else {
                    endHeld(subscriptionReason: "sessionExpired", failure: "the session expired", &state, into: &deliveries)
                    state.session.reset()
                    deliveries.append(.event(.sessionExpired(session: expired)))
                }
            }
            finishReconnect(bootID: bootID, &state, into: &deliveries)
        case .sessionResume:
            switch outcome {
            case .success(let result):
                state.session.phase = .settling
                state.session.id = result["session"]?.stringValue ?? state.session.id
                state.session.resumedPending = Set((result["pending"]?.arrayValue ?? []).compactMap(\.int64Value))
                state.session.lost = []
                state.link = .open
                send(DaemonInfoMethod.name, nil, waiter: .resumeSentinel, &state, into: &deliveries)
            case .failure:
                // unknownSession (-31016), or anything else that refuses the resume: the
                // session is gone either way, and so is what it held. `daemon.info` tells
                // a restarted daemon from an expired session.
                state.session.phase = .probing
                send(DaemonInfoMethod.name, nil, waiter: .reconnectProbe, &state, into: &deliveries)
            }
        case .resumeSentinel:
            // Everything queued while detached came before this reply: a call sent before
            // the drop that the daemon does not run any more and that got no reply is lost.
            let error = VMClientError.disconnected(reason: "the request was lost with the connection")
            let stale = state.pending.keys.filter { id in
                id < state.session.heldBelow && !state.session.resumedPending.contains(id)
            }
            for id in stale.sorted() {
                guard case .caller(let continuation, let opening)? = state.pending.removeValue(forKey: id) else { continue }
                if let opening { deliveries.append(.failOpening(opening, error)) }
                deliveries.append(.reply(continuation, .failure(error)))
            }
            releaseHeldAtShutdown(&state, into: &deliveries)
            let lost = state.session.lost
            state.session.lost = []
            state.session.resumedPending = []
            deliveries.append(.event(.resumed(session: state.session.id ?? "", lost: lost)))
            let bootID = (try? outcome.get())?["bootId"]?.stringValue ?? state.session.bootID
            finishReconnect(bootID: bootID, &state, into: &deliveries)
        }
    }

    /// Starts the handshake on a new connection: `session.resume` when there is a session
    /// to resume, else `daemon.info` for the boot id.
    func startHandshake(on loop: EventLoop) {
        var deliveries: [Delivery] = []
        state.withLock { state in
            state.reconnectAttempt = 0
            if state.session.isResumable {
                state.session.phase = .resuming
                let token = state.session.token ?? ""
                // What each held subscription received, so the daemon can report (and make up
                // for) a tail of values the lost connection took with it.
                var received: [String: Int64] = [:]
                for id in state.subscriptions.keys { received[id] = state.session.lastSeq[id] ?? 0 }
                let params = SessionResumeMethod.Params(token: token, received: received)
                Self.send(SessionResumeMethod.name, params.jsonValue, waiter: .sessionResume, &state, into: &deliveries)
            } else {
                Self.send(DaemonInfoMethod.name, nil, waiter: .reconnectProbe, &state, into: &deliveries)
            }
        }
        if !deliveries.isEmpty { flush(on: loop) }
    }

    /// The handshake is over: the link opens to callers, ``VMClientEvent/reconnected(bootID:)``
    /// is told, and a client without a session asks for a new one.
    private static func finishReconnect(bootID: String?, _ state: inout State, into deliveries: inout [Delivery]) {
        state.link = .open
        state.session.phase = .idle
        if let bootID { state.session.bootID = bootID }
        if state.session.wanted && !state.session.isResumable {
            send(SessionOpenMethod.name, SessionOpenMethod.Params().jsonValue, waiter: .sessionOpen, &state, into: &deliveries)
        }
        deliveries.append(.event(.reconnected(bootID: bootID)))
    }

    /// Queues one of the client's own requests.
    static func send(
        _ method: String, _ params: JSONValue?, waiter: Waiter, _ state: inout State, into deliveries: inout [Delivery]
    ) {
        let id = state.nextID
        state.nextID += 1
        state.pending[id] = waiter
        if queue(ClientWire.request(id: id, method: method, params: params), in: &state) {
            deliveries.append(.flush)
        }
    }

    /// Ends what a lost session held: each subscription with a last `closed(reason:)`, each
    /// pending call and monitor with ``VMClientError/disconnected(reason:)``.
    private static func endHeld(
        subscriptionReason: String, failure: String, _ state: inout State, into deliveries: inout [Delivery]
    ) {
        let error = VMClientError.disconnected(reason: failure)
        for id in state.pending.keys.sorted() {
            guard case .caller(let continuation, let opening)? = state.pending[id] else { continue }
            state.pending[id] = nil
            if let opening { deliveries.append(.failOpening(opening, error)) }
            deliveries.append(.reply(continuation, .failure(error)))
        }
        for id in state.subscriptions.keys.sorted() {
            guard let sink = state.subscriptions[id] else { continue }
            // The daemon already said these ended with its shutdown.
            let reason = state.heldAtShutdown.contains(id) ? "shutdown" : subscriptionReason
            deliveries.append(.subscription(sink, .closed(reason: reason), last: true))
        }
        for sink in state.monitors.values { deliveries.append(.failOpening(.monitor(sink), error)) }
        state.subscriptions = [:]
        state.followed = [:]
        state.renamed = [:]
        state.heldAtShutdown = []
        state.lastValues = [:]
        state.patchSeqs = [:]
        state.monitors = [:]
    }

    /// Reconnecting gave up: what the session held ends (`reason` for subscriptions).
    func releaseHeldSession(reason: String, failure: VMClientError) {
        var deliveries: [Delivery] = []
        state.withLock { state in
            guard state.session.isResumable else { return }
            Self.endHeld(subscriptionReason: reason, failure: "\(failure)", &state, into: &deliveries)
            state.session.reset()
        }
        perform(deliveries)
    }

    /// On ``VMClient/close()``: a resumable session is closed first (`session.close`, not
    /// awaited), so the daemon cleans up at once instead of keeping it for its grace.
    func endSessionBeforeClosing() {
        let (socket, bytes): (FileDescriptor?, [UInt8]?) = state.withLock { state in
            guard state.session.isResumable, case .open = state.link, let socket = state.socket else { return (nil, nil) }
            let id = state.nextID
            state.nextID += 1
            state.session.reset()
            return (socket, state.outbound + ClientWire.request(id: id, method: SessionCloseMethod.name, params: .object([:])))
        }
        guard let socket, let bytes else { return }
        _ = try? bytes.withUnsafeBytes { try socket.send($0) }
    }
}
