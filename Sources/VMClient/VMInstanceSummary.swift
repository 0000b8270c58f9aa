import JSONCore

/// Where an instance lives: until destroyed (`daemon`), or also until its creating
/// connection closes (`connection`).
public enum VMScope: String, Sendable, Hashable, CaseIterable {
    case daemon
    case connection
}

/// One element of `vm.list`'s `instances`.
public struct VMInstanceSummary: Sendable, Hashable {
    /// The instance id (`"counter-1"`).
    public var instance: String
    /// Its type name (`"Counter"`).
    public var type: String
    /// `"daemon"` or `"connection"`.
    public var scope: String
    /// How many subscriptions watch it, over all connections.
    public var subscribers: Int
    /// The instance that created it, for child instances.
    public var parent: String?

    /// Reads one element of `vm.list`'s `instances`.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        instance = try members.decode("instance")
        type = try members.decode("type")
        scope = try members.decode("scope")
        subscribers = try members.decode("subscribers", default: 0)
        parent = try members.decode("parent")
    }
}
