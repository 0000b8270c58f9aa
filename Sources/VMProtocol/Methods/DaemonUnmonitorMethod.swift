import JSONCore

/// `daemon.unmonitor {monitor}` → `{unmonitored: true}`; same-uid peers only.
public enum DaemonUnmonitorMethod: VMMethod {
    public static let name = "daemon.unmonitor"

    public struct Params: Sendable, Hashable {
        /// The monitor to close (opened on this connection).
        public var monitor: String

        public init(monitor: String) { self.monitor = monitor }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["monitor"], method: DaemonUnmonitorMethod.name)
            monitor = try reader.string("monitor", nonEmpty: true)
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["monitor": .string(monitor)] }
    }

    /// `{"unmonitored": true}`.
    package static let result: JSONValue = ["unmonitored": true]
}
