import JSONCore
import JSONRPC
import VMProtocol

/// The few error responses the transport writes itself, before any frame reaches the server:
/// an over-long frame, an unreadable LSP header, a connection over `maxConnections`. Each is a
/// response with `"id": null` whose `data.name` is the symbolic name (PROTOCOL.md §3, §10);
/// codes and names come from the protocol's one table, ``VMErrorCode``.
enum TransportErrors {
    static func limitReached(limit: String, value: Int, message: String) -> JSONRPCError {
        WireError(
            code: .limitReached, message: message,
            extra: ["limit": .string(limit), "value": .integer(Int64(value))]
        ).jsonRPCError
    }

    static func frameTooLarge(maxFrameBytes: Int) -> JSONRPCError {
        limitReached(
            limit: "maxFrameBytes", value: maxFrameBytes,
            message: "Frame larger than the limit maxFrameBytes (\(maxFrameBytes) bytes); the connection is closed. "
                + "Send smaller messages, or restart vmd with a larger --max-frame-bytes.")
    }

    static func tooManyConnections(maxConnections: Int) -> JSONRPCError {
        limitReached(
            limit: "maxConnections", value: maxConnections,
            message: "Limit maxConnections (\(maxConnections)) reached; close other connections "
                + "or restart vmd with a larger --max-connections.")
    }

    /// A peer whose uid the daemon does not admit (PROTOCOL.md §12).
    static func peerNotAdmitted(peerUID: UInt32, daemonUID: UInt32) -> JSONRPCError {
        WireError(
            code: .permissionDenied,
            message: "This daemon admits only its own user (uid \(daemonUID)) and the uids --allow-uid names; "
                + "this peer is uid \(peerUID). The connection is closed.",
            extra: ["uid": .integer(Int64(peerUID))]
        ).jsonRPCError
    }

    static func malformedHeader(_ problem: FramingError) -> JSONRPCError {
        WireError(
            code: .parseError,
            message: "Parse error in the LSP header: \(problem.message). Frames must start with "
                + "\"Content-Length: N\\r\\n\\r\\n\"; the connection is closed."
        ).jsonRPCError
    }

    /// The encoded response (unframed) for `error` with `"id": null`.
    static func encodedResponse(_ error: JSONRPCError) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONRPCEncoder.appendFailure(id: .null, error: error, to: &bytes)
        return bytes
    }
}
