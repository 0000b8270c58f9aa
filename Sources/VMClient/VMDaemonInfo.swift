import JSONCore

/// What `daemon.info` answers: the daemon's identity, load and limits.
public struct VMDaemonInfo: Sendable, Hashable {
    /// The daemon's version (`"0.1.0"`).
    public var version: String
    /// The protocol level; this client speaks level 1.
    public var protocolLevel: Int
    /// Changes at every daemon start: a new value means every instance is gone.
    public var bootID: String
    /// The daemon's process id.
    public var pid: Int
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double
    /// Live instances.
    public var instances: Int
    /// Open connections (this one included).
    public var connections: Int
    /// The limits in force, by name (`maxFrameBytes`, `maxInstances`, ...).
    public var limits: [(name: String, value: JSONValue)]
    /// The socket path the daemon listens on.
    public var socket: String
    /// `"coalesce"` or `"disconnect"` (or a later policy).
    public var slowClient: String
    /// The whole result, for members newer than this client.
    public var raw: JSONValue

    /// Reads a `daemon.info` result.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        version = try members.decode("version")
        protocolLevel = try members.decode("protocol")
        bootID = try members.decode("bootId")
        pid = try members.decode("pid")
        uptimeSeconds = try members.decode("uptimeSeconds")
        instances = try members.decode("instances")
        connections = try members.decode("connections")
        let limitsObject: JSONObject = try members.decode("limits", default: JSONObject())
        limits = limitsObject.members.map { (name: $0.key, value: $0.value) }
        socket = try members.decode("socket")
        slowClient = try members.decode("slowClient", default: "")
        raw = json
    }

    public static func == (lhs: VMDaemonInfo, rhs: VMDaemonInfo) -> Bool { lhs.raw == rhs.raw }
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }
}
