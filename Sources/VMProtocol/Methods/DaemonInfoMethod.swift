import JSONCore

/// `daemon.info {}` → `{version, protocol, bootId, pid, uptimeSeconds, instances, connections,
/// limits, socket, slowClient}`.
public enum DaemonInfoMethod: VMMethod {
    public static let name = "daemon.info"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// What `daemon.info` reports.
    public struct Result: Sendable, Hashable {
        public var version: String
        /// The protocol level (`protocol`); the server always reports
        /// ``OpenRPCDocument/protocolLevel``, a client reads what the daemon speaks.
        public var protocolLevel: Int = OpenRPCDocument.protocolLevel
        /// Changes at every daemon start: a new value means every instance is gone.
        public var bootId: String
        public var pid: Int64
        public var uptimeSeconds: Double
        /// Live instances.
        public var instances: Int
        /// Open connections (the asking one included).
        public var connections: Int
        public var limits: VMLimits
        /// The socket path the daemon listens on.
        public var socket: String
        public var slowClient: SlowClientMode

        package init(
            version: String, bootId: String, pid: Int64, uptimeSeconds: Double, instances: Int,
            connections: Int, limits: VMLimits, socket: String, slowClient: SlowClientMode
        ) {
            self.version = version
            self.bootId = bootId
            self.pid = pid
            self.uptimeSeconds = uptimeSeconds
            self.instances = instances
            self.connections = connections
            self.limits = limits
            self.socket = socket
            self.slowClient = slowClient
        }

        /// Reads a `daemon.info` result (a client's side); members it does not know are ignored.
        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            version = try members.decode("version")
            protocolLevel = try members.decode("protocol")
            bootId = try members.decode("bootId")
            pid = try members.decode("pid")
            uptimeSeconds = try members.decode("uptimeSeconds")
            instances = try members.decode("instances")
            connections = try members.decode("connections")
            limits = try members.decode("limits", default: VMLimits())
            socket = try members.decode("socket")
            slowClient = try members.decodeCase("slowClient")
        }

        /// The result object, members in the protocol's order.
        public var jsonValue: JSONValue {
            [
                "version": .string(version),
                "protocol": .integer(Int64(protocolLevel)),
                "bootId": .string(bootId),
                "pid": .integer(pid),
                "uptimeSeconds": .double(uptimeSeconds),
                "instances": .integer(Int64(instances)),
                "connections": .integer(Int64(connections)),
                "limits": limits.jsonValue,
                "socket": .string(socket),
                "slowClient": .string(slowClient.rawValue),
            ]
        }
    }
}
