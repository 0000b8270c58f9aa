import JSONCore

/// `daemon.info {}` → `{version, protocol, bootId, pid, uptimeSeconds, instances, connections,
/// limits, socket, slowClient}`.
public enum DaemonInfoMethod {
    public static let name = "daemon.info"

    /// Checks the (empty) params.
    public static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// What `daemon.info` reports.
    public struct Result: Sendable, Hashable {
        public var version: String
        public var bootId: String
        public var pid: Int64
        public var uptimeSeconds: Double
        public var instances: Int
        public var connections: Int
        public var limits: VMLimits
        public var socket: String
        public var slowClient: SlowClientMode

        public init(
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

        /// The result object, with `protocol` set to ``OpenRPCDocument/protocolLevel``.
        public var jsonValue: JSONValue {
            [
                "version": .string(version),
                "protocol": .integer(Int64(OpenRPCDocument.protocolLevel)),
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
