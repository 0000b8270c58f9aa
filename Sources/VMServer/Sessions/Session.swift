import JSONRPC
import VMProtocol

/// One connection as the server sees it: its sink and everything it owns.
///
/// Closing a connection cancels its pending `vm.execute` calls, ends its subscriptions and
/// monitors without telling anyone, and destroys the `connection`-scoped instances it created
/// — unless `session.open` made it resumable: then it is detached (its sink becomes a
/// ``DetachedSink``) until `session.resume` moves it to another connection or its grace ends
/// (PROTOCOL.md §18).
final class Session {
    /// The connection holding the session now (changes on `session.resume`).
    var id: ConnectionID
    let peer: PeerIdentity
    /// Where its messages go: the connection's sink, or a ``DetachedSink`` while detached.
    /// (Unchecked exclusivity: read on every delivery; replaced only in single statements by
    /// `Server+Sessions.swift`, never during a delivery.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var sink: any ConnectionSink
    /// Set by `session.open` until `session.close`: the session's name and token.
    var ticket: SessionTicket?
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
    /// Per subscription id, the last seq handed to the connection this session lost (set when
    /// it detaches or is taken over, read by the next `session.resume`; Server+Sessions.swift).
    var handedAtLoss: [String: Int64] = [:]
    /// Frames received on its connections (blank lines aside): `session.resume` must be a
    /// fresh connection's first (PROTOCOL.md §18).
    var framesReceived = 0
    /// `false` once the transport reported the connection closed. (Unchecked exclusivity: a
    /// flag read on every delivery and written in single statements.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var isOpen = true

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
