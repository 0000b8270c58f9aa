import JSONCore

/// `daemon.shutdown {}` → `{stopping: true}`; same-uid peers only.
public enum DaemonShutdownMethod: VMMethod {
    public static let name = "daemon.shutdown"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{"stopping": true}`.
    package static let result: JSONValue = ["stopping": true]
}
