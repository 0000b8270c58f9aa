import JSONCore

/// Every limit in force, as `daemon.info` reports them under `limits` (PROTOCOL.md §11): the one
/// type the daemon's settings, its transport and the server share, with the contract's defaults.
///
/// The transport (VMTransport) enforces ``maxFrameBytes``, ``maxConnections`` and
/// ``maxOutboundBytes`` (when a reader is too slow, and what happens to it); the server
/// enforces the others per message.
public struct VMLimits: Sendable, Hashable {
    /// Largest inbound frame body in bytes (enforced by the transport).
    public var maxFrameBytes: Int
    /// Deepest nesting of arrays and objects in an inbound message.
    public var maxDepth: Int
    /// Open connections at once (enforced by the transport).
    public var maxConnections: Int
    /// Live instances at once, children included.
    public var maxInstances: Int
    /// Open subscriptions and monitors per connection.
    public var maxSubscriptionsPerConnection: Int
    /// Items in one batch.
    public var maxBatchItems: Int
    /// Bytes queued for one connection before it counts as a slow reader.
    public var maxOutboundBytes: Int
    /// Longest grace of a resumable session in milliseconds, and `session.open`'s default
    /// (0: sessions are not resumable).
    public var sessionGraceMs: Int = 60_000
    /// Detached sessions waiting for a resume at once; one more expires the oldest.
    public var maxDetachedSessions: Int = 100

    /// The protocol's defaults unless given.
    package init(
        maxFrameBytes: Int = 1_048_576, maxDepth: Int = 64, maxConnections: Int = 4096,
        maxInstances: Int = 100_000, maxSubscriptionsPerConnection: Int = 1024,
        maxBatchItems: Int = 256, maxOutboundBytes: Int = 4_194_304
    ) {
        self.maxFrameBytes = maxFrameBytes
        self.maxDepth = maxDepth
        self.maxConnections = maxConnections
        self.maxInstances = maxInstances
        self.maxSubscriptionsPerConnection = maxSubscriptionsPerConnection
        self.maxBatchItems = maxBatchItems
        self.maxOutboundBytes = maxOutboundBytes
    }

    /// Reads a `limits` object (a client's side); a member left out keeps the protocol's
    /// default, a member this revision does not know is ignored.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        let defaults = VMLimits()
        maxFrameBytes = try members.decode("maxFrameBytes", default: defaults.maxFrameBytes)
        maxDepth = try members.decode("maxDepth", default: defaults.maxDepth)
        maxConnections = try members.decode("maxConnections", default: defaults.maxConnections)
        maxInstances = try members.decode("maxInstances", default: defaults.maxInstances)
        maxSubscriptionsPerConnection = try members.decode(
            "maxSubscriptionsPerConnection", default: defaults.maxSubscriptionsPerConnection)
        maxBatchItems = try members.decode("maxBatchItems", default: defaults.maxBatchItems)
        maxOutboundBytes = try members.decode("maxOutboundBytes", default: defaults.maxOutboundBytes)
    }

    /// The `limits` object, members in the protocol's order.
    public var jsonValue: JSONValue {
        [
            "maxFrameBytes": .integer(Int64(maxFrameBytes)),
            "maxDepth": .integer(Int64(maxDepth)),
            "maxConnections": .integer(Int64(maxConnections)),
            "maxInstances": .integer(Int64(maxInstances)),
            "maxSubscriptionsPerConnection": .integer(Int64(maxSubscriptionsPerConnection)),
            "maxBatchItems": .integer(Int64(maxBatchItems)),
            "maxOutboundBytes": .integer(Int64(maxOutboundBytes)),
            "sessionGraceMs": .integer(Int64(sessionGraceMs)),
            "maxDetachedSessions": .integer(Int64(maxDetachedSessions)),
        ]
    }
}
