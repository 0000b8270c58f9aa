/// The limits a daemon enforces, with the defaults of the wire contract (PROTOCOL.md §11).
///
/// The transport enforces ``maxFrameBytes``, ``maxConnections`` and ``maxOutboundBytes``
/// itself; the others are handed to the server, which enforces them per message. All of them
/// are reported by `daemon.info` under `limits`.
public struct DaemonLimits: Sendable, Hashable {
    /// Largest accepted frame body, in bytes; a longer one is answered and the connection closed.
    public var maxFrameBytes: Int = 1_048_576
    /// Deepest nesting of arrays and objects in a received message.
    public var maxDepth: Int = 64
    /// Connections served at once; the next one gets a `limitReached` error and is closed.
    public var maxConnections: Int = 4096
    /// Live view-model instances.
    public var maxInstances: Int = 100_000
    /// Subscriptions and monitors per connection.
    public var maxSubscriptionsPerConnection: Int = 1024
    /// Items in one batch.
    public var maxBatchItems: Int = 256
    /// Bytes queued for one connection before it counts as a slow reader.
    public var maxOutboundBytes: Int = 4_194_304
    /// Longest grace of a detached resumable session, in milliseconds (0: none is resumable).
    /// Enforced by the server.
    public var sessionGraceMs: Int = 60_000
    /// Detached sessions kept at once; one more expires the oldest. Enforced by the server.
    public var maxDetachedSessions: Int = 100

    /// The contract's defaults.
    public init() {}

    /// Once a slow reader's queue falls under this many bytes (half the bound), reading resumes
    /// and the handler hears ``ConnectionHandler/connectionDrained(_:)``.
    public var outboundLowWaterBytes: Int { maxOutboundBytes / 2 }

    /// Every limit by its wire name, in `daemon.info` order.
    public var named: [(name: String, value: Int)] {
        [
            ("maxFrameBytes", maxFrameBytes), ("maxDepth", maxDepth), ("maxConnections", maxConnections),
            ("maxInstances", maxInstances), ("maxSubscriptionsPerConnection", maxSubscriptionsPerConnection),
            ("maxBatchItems", maxBatchItems), ("maxOutboundBytes", maxOutboundBytes),
            ("sessionGraceMs", sessionGraceMs), ("maxDetachedSessions", maxDetachedSessions),
        ]
    }
}
