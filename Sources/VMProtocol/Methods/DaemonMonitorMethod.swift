import JSONCore

/// `daemon.monitor {}` → `{monitor}`, then `daemon.message` notifications; same-uid peers only.
public enum DaemonMonitorMethod {
    public static let name = "daemon.monitor"

    /// Checks the (empty) params.
    public static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{"monitor": id}`.
    public static func result(monitor: String) -> JSONValue { ["monitor": .string(monitor)] }
}
