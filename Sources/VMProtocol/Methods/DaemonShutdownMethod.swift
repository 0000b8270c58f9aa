import JSONCore

/// `daemon.shutdown {}` → `{stopping: true}`; same-uid peers only.
public enum DaemonShutdownMethod: VMMethod {
    public static let name = "daemon.shutdown"

    /// Checks the (empty) params.
    public static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{"stopping": true}`.
    public static let result: JSONValue = ["stopping": true]
}
