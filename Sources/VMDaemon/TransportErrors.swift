import JSONCore
import JSONRPC

/// The few error responses the transport writes itself, before any frame reaches the server:
/// an over-long frame, an unreadable LSP header, a connection over `maxConnections`. Each is a
/// response with `"id": null` whose `data.name` is the symbolic name (PROTOCOL.md §3, §10).
enum TransportErrors {
    /// vmd's `limitReached` code; VMProtocol declares the whole application range, the
    /// transport needs only this one and must not depend on the server's layer for it.
    static let limitReachedCode = JSONRPCErrorCode(-31010)

    static func limitReached(limit: String, value: Int, message: String) -> JSONRPCError {
        JSONRPCError(
            code: limitReachedCode, name: "limitReached", message: message,
            extra: ["limit": .string(limit), "value": .integer(Int64(value))])
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

    /// vmd's `permissionDenied` code (see ``limitReachedCode`` for why it is repeated here).
    static let permissionDeniedCode = JSONRPCErrorCode(-31015)

    /// A peer whose uid the daemon does not admit (PROTOCOL.md §12).
    static func peerNotAdmitted(peerUID: UInt32, daemonUID: UInt32) -> JSONRPCError {
        JSONRPCError(
            code: permissionDeniedCode, name: "permissionDenied",
            message: "This daemon admits only its own user (uid \(daemonUID)) and the uids --allow-uid names; "
                + "this peer is uid \(peerUID). The connection is closed.",
            extra: ["uid": .integer(Int64(peerUID))])
    }

    static func malformedHeader(_ problem: FramingError) -> JSONRPCError {
        JSONRPCError(
            code: .parseError, name: "parseError",
            message: "Parse error in the LSP header: \(problem.message). Frames must start with "
                + "\"Content-Length: N\\r\\n\\r\\n\"; the connection is closed.")
    }

    /// The encoded response (unframed) for `error` with `"id": null`.
    static func encodedResponse(_ error: JSONRPCError) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONRPCEncoder.appendFailure(id: .null, error: error, to: &bytes)
        return bytes
    }
}
