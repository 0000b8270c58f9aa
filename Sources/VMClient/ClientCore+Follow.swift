import JSONCore
import VMProtocol

/// Following instances across a daemon restart (Protocol/PROTOCOL.md, section 18, "After a
/// restart"). A reconnecting client that finds another `bootId` tells
/// ``VMClientEvent/daemonRestarted(bootID:)``, then sends `vm.subscribe` (with replay) for
/// each subscription it held: where the instance came back (a durable one, same id), the
/// subscription's sequence goes on with the instance's current values (replays, `seq` from 1
/// again, under a new subscription id the client maps); where it did not, the sequence ends
/// with ``VMSubscriptionEvent/closed(reason:)`` reason `"daemonRestarted"`.
extension ClientCore {
    /// The id the daemon knows a subscription by now (``VMSubscription/id`` → the id it was
    /// opened again under after a restart).
    func currentSubscriptionID(_ id: String) -> String {
        state.withLock { $0.renamed[id] ?? id }
    }

    /// Forgets what the client kept to open `id` again.
    static func forgetFollowing(_ id: String, _ state: inout State) {
        state.heldAtShutdown.remove(id)
        guard let followed = state.followed.removeValue(forKey: id) else { return }
        state.renamed[followed.original] = nil
    }

    /// Whether a `vm.closed` is held rather than delivered: `"shutdown"` of a known durable
    /// instance while the client holds a resumable session. The daemon is going away and
    /// will come back with the instance; the reconnect follows it (``takeFollowed(_:)``), and
    /// a reconnect that resumes or gives up delivers `"shutdown"` after all.
    static func holdsAtShutdown(_ id: String, reason: String, _ state: inout State) -> Bool {
        guard reason == "shutdown", state.session.isResumable, state.followed[id]?.isDurable == true else { return false }
        state.heldAtShutdown.insert(id)
        return true
    }

    /// The session was resumed after all: the subscriptions held at a shutdown end as it said.
    static func releaseHeldAtShutdown(_ state: inout State, into deliveries: inout [Delivery]) {
        for id in state.heldAtShutdown.sorted() {
            guard let sink = state.subscriptions.removeValue(forKey: id) else { continue }
            forgetFollowing(id, &state)
            state.lastValues[id] = nil
            state.patchSeqs[id] = nil
            state.session.lastSeq[id] = nil
            deliveries.append(.subscription(sink, .closed(reason: "shutdown"), last: true))
        }
        state.heldAtShutdown = []
    }

    /// Takes the subscriptions that can be opened again out of `state` (the others stay, to
    /// be ended), in the order they were opened.
    static func takeFollowed(_ state: inout State) -> [(SubscriptionSink, FollowedSubscription)] {
        var taken: [(SubscriptionSink, FollowedSubscription)] = []
        for (id, followed) in state.followed {
            guard let sink = state.subscriptions.removeValue(forKey: id) else { continue }
            state.lastValues[id] = nil
            state.patchSeqs[id] = nil
            taken.append((sink, followed))
        }
        state.followed = [:]
        state.renamed = [:]
        state.heldAtShutdown = []
        return taken.sorted { order($0.1.original, $1.1.original) }
    }

    /// Sends `vm.subscribe` for each subscription taken, on the new connection.
    static func resubscribe(
        _ following: [(SubscriptionSink, FollowedSubscription)], _ state: inout State, into deliveries: inout [Delivery]
    ) {
        for (sink, followed) in following {
            send(VMSubscribeMethod.name, followed.resubscribeParams.jsonValue, waiter: .resubscribe(sink, followed), &state, into: &deliveries)
        }
    }

    /// The reply to a `vm.subscribe` sent after a restart: the sequence goes on under the new
    /// id (the values behind this reply find it), or ends when the instance did not come back.
    static func decideResubscribe(
        _ sink: SubscriptionSink, _ followed: FollowedSubscription, _ outcome: Result<JSONValue, VMRemoteError>,
        _ state: inout State, into deliveries: inout [Delivery]
    ) {
        guard case .success(let result) = outcome, let id = result["subscription"]?.stringValue else {
            deliveries.append(.subscription(sink, .closed(reason: "daemonRestarted"), last: true))
            return
        }
        state.subscriptions[id] = sink
        if followed.options.patches { state.lastValues[id] = [:] }
        state.followed[id] = followed
        if id != followed.original { state.renamed[followed.original] = id }
        // Its consumer giving up now unsubscribes the new id.
        deliveries.append(.opened(.subscription(sink, SubscriptionTarget(instance: followed.instance, options: followed.options)), id: id))
    }

    /// The sinks of `vm.subscribe` requests sent after a restart and never answered: their
    /// sequences end with `"daemonRestarted"` (the connection was lost before the answer).
    static func unansweredResubscribes(_ pending: [Int64: Waiter]) -> [SubscriptionSink] {
        pending.keys.sorted().compactMap { id in
            if case .resubscribe(let sink, _)? = pending[id] { sink } else { nil }
        }
    }

    /// Daemon subscription ids (`sub-2` before `sub-10`): by length, then by text.
    private static func order(_ left: String, _ right: String) -> Bool {
        left.count != right.count ? left.count < right.count : left < right
    }
}
