import JSONCore
import JSONRPC
import VMProtocol

/// `session.open`, `session.resume`, `session.close`, and what happens to a resumable session
/// whose connection closes (PROTOCOL.md §18).
///
/// A detached session stays what it was — the same ``Session`` object with its subscriptions,
/// monitors, pending executions and owned instances — with a ``DetachedSink`` in place of its
/// connection's sink, so everything owed to it queues there exactly as for a slow reader.
/// `session.resume` moves that object to the new connection and flushes the queue after its
/// reply.
extension Server {
    // MARK: Methods

    func sessionOpen(_ call: Call) throws(WireError) -> Outcome {
        let params = try SessionOpenMethod.Params(call.params)
        let cap = Int64(limits.sessionGraceMs)
        let graceMs = min(params.graceMs ?? cap, cap)
        let session = call.session
        let ticket: SessionTicket
        if let existing = session.ticket {
            existing.graceMs = graceMs
            ticket = existing
        } else {
            sessionBook.nextNumber += 1
            ticket = SessionTicket(name: "s\(sessionBook.nextNumber)", token: SessionTicket.newToken(), graceMs: graceMs)
            session.ticket = ticket
            sessionBook.byToken[ticket.token] = session
            log(.sessionOpened(session: ticket.name, connection: session.id))
        }
        return .result(SessionOpenMethod.Result(session: ticket.name, token: ticket.token, graceMs: graceMs).jsonValue)
    }

    func sessionClose(_ call: Call) throws(WireError) -> Outcome {
        try SessionCloseMethod.decodeParams(call.params)
        let session = call.session
        if let ticket = session.ticket {
            session.ticket = nil
            sessionBook.byToken[ticket.token] = nil
            log(.sessionClosed(session: ticket.name, connection: session.id))
        }
        return .result(SessionCloseMethod.result)
    }

    func sessionResume(_ call: Call) throws(WireError) -> Outcome {
        if case .batch = call.route { throw WireError.resumeInBatch }
        let params = try SessionResumeMethod.Params(call.params)
        let fresh = call.session
        if let busy = Self.ownership(of: fresh) { throw WireError.resumeOnBusyConnection(busy) }
        // Unknown, closed, expired and other-uid tokens are one answer (nothing else to learn).
        guard let session = sessionBook.byToken[params.token], let ticket = session.ticket,
              session.peer.uid == fresh.peer.uid, session !== fresh
        else { throw WireError.unknownSession }
        // A live session is resumed only by a connection's first message (PROTOCOL.md §18).
        if fresh.framesReceived > 1 { throw WireError.resumeOnBusyConnection("sent \(fresh.framesReceived - 1) message(s) before it") }

        let queued: DetachedSink?
        let previous = session.id
        if let detachedSink = session.sink as? DetachedSink, sessionBook.detached[previous] === session {
            sessionBook.detached[previous] = nil
            sessionBook.detachOrder.removeAll { $0 === session }
            ticket.expiry?.dispose()
            ticket.expiry = nil
            queued = detachedSink
        } else {
            // Still attached elsewhere: that connection loses the session and is closed after
            // what is already queued on it (its later `connectionClosed` finds nothing).
            Self.noteLoss(of: session)
            sessions[previous] = nil
            session.sink.close()
            queued = nil
        }
        // The fresh session object only carries this call's reply; the connection is the
        // resumed session's from now on.
        session.id = fresh.id
        session.sink = fresh.sink
        sessions[fresh.id] = session
        for id in session.ownedInstances {
            guard let record = (try? host.instance(id))?.attachment as? InstanceRecord else { continue }
            record.owner = fresh.id
        }
        log(.sessionResumed(session: ticket.name, connection: fresh.id, from: previous, queuedBytes: queued?.pendingBytes ?? 0))

        let result = SessionResumeMethod.result(
            session: ticket.name, subscriptions: Self.subscriptionIDs(of: session),
            pending: session.pendingExecutions.compactMap(\.call.id))
        // The reply first; then, for a client that said what it `received`, the seqs the lost
        // connection took with it (they come before anything queued since); then what was
        // queued while detached in order; then live values.
        return .resultThen(result) { [weak self] in
            guard let self, session.isOpen else { return }
            let handed = session.handedAtLoss
            session.handedAtLoss = [:]
            let resent = params.received.map { reportLostTails(session, handed: handed, received: $0) } ?? []
            queued?.flush(to: session.sink)
            // Losses while detached are reported now unless the new connection is itself full
            // already (then its drain reports them, as for any slow reader).
            if !outbox.isFull(session) { connectionDrained(session.id) }
            for subscription in resent where subscription.isOpen { replay(subscription) }
        }
    }

    /// What the lost connection took with it, for a client that said what it `received`: per
    /// subscription whose last received seq is below the last one handed to that connection,
    /// `vm.overflow` for the rest. Returns those subscriptions: the caller sends the current
    /// value of each of their state outputs again (as a replay, with the next seqs) after what
    /// was queued, so a subscriber never keeps a stale value when nothing follows. Without
    /// this a tail lost with the connection showed nowhere: no later seq revealed the gap,
    /// and the newest value never came.
    private func reportLostTails(_ session: Session, handed: [String: Int64], received: [String: Int64]) -> [Subscription] {
        var lost: [Subscription] = []
        for id in Self.subscriptionIDs(of: session) {
            guard let subscription = session.subscriptions[id], let last = handed[id], let got = received[id], got < last
            else { continue }
            subscription.reportLost((got + 1)...last)
            lost.append(subscription)
        }
        return lost
    }

    /// Remembers, per subscription, the last seq handed to the connection `session` is losing,
    /// and makes patch subscriptions forget what that connection received: its client may
    /// never have read it, so the next value of each output goes whole (a patch is never
    /// computed against a value the client may not have, PROTOCOL.md §18).
    static func noteLoss(of session: Session) {
        session.handedAtLoss = session.subscriptions.mapValues(\.lastHandedSeq)
        for subscription in session.subscriptions.values { subscription.forgetReceived() }
    }

    // MARK: Detach and expiry

    /// The connection of `session` closed. A resumable session is detached and kept for its
    /// grace (returns `true`); otherwise the caller releases it as today.
    func detachIfResumable(_ session: Session) -> Bool {
        guard let ticket = session.ticket, ticket.graceMs > 0, limits.maxDetachedSessions > 0,
              !isShuttingDown
        else {
            if let ticket = session.ticket { sessionBook.byToken[ticket.token] = nil }
            return false
        }
        let sink = DetachedSink(
            capacity: limits.maxOutboundBytes, closesWhenFull: identity.slowClient == .disconnect
        ) { [weak self, weak session] in
            // `--slow-client disconnect` closing a full detached session: it expires.
            guard let self, let session else { return }
            scheduler.schedule { [weak self] in self?.expire(session, reason: "its queue is full (--slow-client disconnect)") }
        }
        Self.noteLoss(of: session)
        session.sink = sink
        sessionBook.detached[session.id] = session
        sessionBook.detachOrder.append(session)
        ticket.expiry = scheduler.schedule(after: .milliseconds(ticket.graceMs)) { [weak self, weak session] in
            guard let self, let session else { return }
            expire(session, reason: "no resume within \(ticket.graceMs) ms")
        }
        log(.sessionDetached(session: ticket.name, connection: session.id, graceMs: ticket.graceMs))
        while sessionBook.detachOrder.count > limits.maxDetachedSessions, let oldest = sessionBook.detachOrder.first {
            expire(oldest, reason: "more than \(limits.maxDetachedSessions) detached sessions (--max-detached-sessions)")
        }
        return true
    }

    /// Ends a detached session as if its connection had just closed without a session.
    func expire(_ session: Session, reason: String) {
        guard sessionBook.detached[session.id] === session, let ticket = session.ticket else { return }
        sessionBook.detached[session.id] = nil
        sessionBook.detachOrder.removeAll { $0 === session }
        sessionBook.byToken[ticket.token] = nil
        ticket.expiry?.dispose()
        ticket.expiry = nil
        session.ticket = nil
        log(.sessionExpired(session: ticket.name, reason: reason))
        release(session)
    }

    /// Expires every detached session (the daemon is stopping).
    func expireDetachedSessions() {
        for session in sessionBook.detachOrder { expire(session, reason: "the daemon is stopping") }
    }

    // MARK: Helpers

    /// What `session` owns that forbids resuming another session on it, in words; `nil` if
    /// nothing.
    static func ownership(of session: Session) -> String? {
        if session.ticket != nil { return "a session (session.open)" }
        if !session.ownedInstances.isEmpty { return "an instance" }
        if !session.subscriptions.isEmpty { return "a subscription" }
        if !session.monitors.isEmpty { return "a monitor" }
        if !session.pendingExecutions.isEmpty { return "a pending call" }
        return nil
    }

    /// The subscription ids of `session` in opening order (`sub-<N>` by N).
    static func subscriptionIDs(of session: Session) -> [String] {
        session.subscriptions.keys.sorted { left, right in
            let l = Int(left.dropFirst(4)) ?? 0, r = Int(right.dropFirst(4)) ?? 0
            return l != r ? l < r : left < right
        }
    }

    /// Session tokens never reach a monitor: a copy of `message` with the value of every
    /// `"token"` member that looks like a token (32 lower-case hex digits) replaced by
    /// `<redacted>` — live or not, so a stale or guessed one is hidden too — or `nil` when it
    /// holds none.
    func redactingTokens(in message: UnsafeRawBufferPointer) -> [UInt8]? {
        let marker = Array(#""token":""#.utf8)
        let length = 32
        var tokens: [Range<Int>] = []
        var index = 0
        while index + marker.count + length < message.count {
            var matches = true
            for offset in marker.indices where message[index + offset] != marker[offset] {
                matches = false
                break
            }
            let start = index + marker.count
            guard matches, message[start + length] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let isHex = message[start..<(start + length)].allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
            if isHex { tokens.append(start..<(start + length)) }
            index = start
        }
        guard !tokens.isEmpty else { return nil }
        var redacted: [UInt8] = []
        redacted.reserveCapacity(message.count)
        var copied = 0
        for token in tokens {
            redacted.append(contentsOf: message[copied..<token.lowerBound])
            redacted.append(contentsOf: "<redacted>".utf8)
            copied = token.upperBound
        }
        redacted.append(contentsOf: message[copied...])
        return redacted
    }
}
