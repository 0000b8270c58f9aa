/// Something the daemon's log should say that only the server sees.
package enum ServerLogEvent: Sendable, Hashable, CustomStringConvertible {
    /// A slow reader's subscription lost the seqs `lost` (reported by `vm.overflow` on drain).
    case overflow(connection: ConnectionID, subscription: String, lost: ClosedRange<Int64>)
    /// A peer asked the daemon to stop (`daemon.shutdown`).
    case shutdownRequested(connection: ConnectionID)
    /// A method failed with an error that is not a wire error (answered -32603).
    case internalError(method: String, detail: String)
    /// `session.open` made a connection's session resumable. (No event carries the token.)
    case sessionOpened(session: String, connection: ConnectionID)
    /// `session.close` ended a session's resumability.
    case sessionClosed(session: String, connection: ConnectionID)
    /// A resumable session's connection closed; it waits `graceMs` for `session.resume`.
    case sessionDetached(session: String, connection: ConnectionID, graceMs: Int64)
    /// `session.resume` moved a session from connection `from` to `connection`.
    case sessionResumed(session: String, connection: ConnectionID, from: ConnectionID, queuedBytes: Int)
    /// A detached session was released (`reason`: grace over, the cap, …).
    case sessionExpired(session: String, reason: String)

    package var description: String {
        switch self {
        case .overflow(let connection, let subscription, let lost):
            "overflow on \(connection): subscription \(subscription) lost seq \(lost.lowerBound)...\(lost.upperBound)"
        case .shutdownRequested(let connection):
            "daemon.shutdown requested by \(connection)"
        case .internalError(let method, let detail):
            "internal error in \(method): \(detail)"
        case .sessionOpened(let session, let connection):
            "session \(session) opened on \(connection)"
        case .sessionClosed(let session, let connection):
            "session \(session) closed on \(connection)"
        case .sessionDetached(let session, let connection, let graceMs):
            "session \(session) detached from \(connection); kept \(graceMs) ms for session.resume"
        case .sessionResumed(let session, let connection, let from, let queuedBytes):
            "session \(session) resumed on \(connection) (was \(from)); \(queuedBytes) queued bytes follow"
        case .sessionExpired(let session, let reason):
            "session \(session) expired: \(reason)"
        }
    }
}
