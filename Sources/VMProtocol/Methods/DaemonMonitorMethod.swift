import JSONCore

/// `daemon.monitor {}` → `{monitor}`, then `daemon.message` notifications; same-uid peers only.
public enum DaemonMonitorMethod: VMMethod {
    public static let name = "daemon.monitor"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{"monitor": id}`: the id `daemon.message` notifications and `daemon.unmonitor` name.
    public struct Result: Sendable, Hashable {
        public var monitor: String

        package init(monitor: String) { self.monitor = monitor }

        /// Reads the result (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            monitor = try JSONObjectDecoder(json).decode("monitor")
        }

        public var jsonValue: JSONValue { ["monitor": .string(monitor)] }
    }

    /// `{"monitor": id}`.
    package static func result(monitor: String) -> JSONValue { Result(monitor: monitor).jsonValue }
}
