import JSONCore

/// `session.close {}` → `{}`: ends the calling connection's resumability; idempotent.
public enum SessionCloseMethod: VMMethod {
    public static let name = "session.close"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// `{}`.
    package static let result: JSONValue = .object([:])
}
