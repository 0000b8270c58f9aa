import JSONCore

/// `session.close {}` → `{}`: ends the calling connection's resumability; idempotent.
public enum SessionCloseMethod {
    public static let name = "session.close"

    /// Checks the (empty) params.
    public static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{}`.
    public static let result: JSONValue = .object([:])
}
