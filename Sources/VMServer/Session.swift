import JSONRPC
import VMProtocol

/// One connection as the server sees it: its sink and everything it owns.
///
/// Closing a connection cancels its pending `vm.execute` calls, ends its subscriptions and
/// monitors without telling anyone, and destroys the `connection`-scoped instances it created.
final class Session {
    let id: ConnectionID
    let peer: PeerIdentity
    let sink: any ConnectionSink
    /// Open subscriptions by id.
    var subscriptions: [String: Subscription] = [:]
    /// Open monitors by id.
    var monitors: [String: Monitor] = [:]
    /// `vm.execute` calls still waiting for their action, in arrival order.
    var pendingExecutions: [OpenExecuteCall] = []
    /// Ids of the `connection`-scoped instances this connection created, in creation order.
    var ownedInstances: [String] = []
    /// Subscriptions that lost values while the buffer was full, in the order the losses began.
    var lossOrder: [Subscription] = []
    /// `false` once the transport reported the connection closed. (Unchecked exclusivity: a
    /// flag read on every delivery and written in single statements.)
    @exclusivity(unchecked) var isOpen = true
    /// A disconnect of this slow reader has been asked for (`--slow-client disconnect`).
    var isDisconnecting = false

    init(id: ConnectionID, peer: PeerIdentity, sink: any ConnectionSink) {
        self.id = id
        self.peer = peer
        self.sink = sink
    }

    /// Subscriptions and monitors count together toward `maxSubscriptionsPerConnection`.
    var openStreams: Int { subscriptions.count + monitors.count }

    /// The connection's number on the wire (`daemon.message`'s `connection`).
    var number: UInt64 { id.rawValue }
}
