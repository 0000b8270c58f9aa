import JSONCore

/// `rpc.discover {}` → the OpenRPC document (``OpenRPCDocument``) as a JSON value.
public enum RPCDiscoverMethod: VMMethod {
    public static let name = "rpc.discover"

    /// Checks the (empty) params.
    package static func decodeParams(_ params: JSONValue?) throws(WireError) {
        try ParamsReader(params).rejectUnknown(allowed: [], method: name)
    }

    /// The document in compact JSON, parsed and re-encoded once per process: the result bytes.
    package static let encodedResult: [UInt8] = {
        // The embedded text is checked by a test to be the valid document; if it ever failed to
        // parse, serving `null` is better than crashing the daemon.
        guard let document = try? JSONValue(parsing: OpenRPCDocument.text) else { return Array("null".utf8) }
        return document.encodedBytes()
    }()
}
