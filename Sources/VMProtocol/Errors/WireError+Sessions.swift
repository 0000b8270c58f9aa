import JSONCore

/// The errors of `session.open`, `session.resume` and `session.close`.
extension WireError {
    /// -31016: the token names no session this peer may resume. Unknown, expired, closed and
    /// other-uid tokens get the same answer, so a guess learns nothing.
    package static let unknownSession = WireError(
        code: .unknownSession,
        message: "No session to resume with this token: it is unknown, expired or closed. Open a new session with session.open.")

    /// -32600: `session.resume` on a connection that already owns something.
    package static func resumeOnBusyConnection(_ what: String) -> WireError {
        invalidRequest("session.resume must be the first thing a connection does, but this connection already has \(what); resume on a new connection")
    }

    /// -32600: `session.resume` inside a batch.
    package static let resumeInBatch = invalidRequest(
        "session.resume cannot be part of a batch; send it alone as the connection's first request")
}
