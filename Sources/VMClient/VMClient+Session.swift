import Posix

/// The resumable session a reconnecting client holds (ClientCore+Session.swift).
extension VMClient {
    /// The id of the session the client resumes after a drop (`"s3"`), or `nil` when it has
    /// none: reconnecting is off, the daemon has no sessions, or its grace is 0.
    public var sessionID: String? { core.sessionID }

    /// Drops the connection as a network failure would, without `session.close`: the daemon
    /// sees the connection end and keeps the session for its grace. For tests of resuming.
    /// - Parameter stall: how long the client's loop thread first stays busy, reading nothing
    ///   (as on a loaded machine): what the daemon writes meanwhile is lost with the socket.
    func dropConnection(afterStalling stall: Duration = .zero) {
        let core = self.core
        thread.handle.submit { loop in
            if stall > .zero { CurrentProcess.sleep(for: stall) }
            core.connectionLost("the connection was dropped", on: loop)
        }
    }
}
