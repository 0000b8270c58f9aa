/// The server's resumable sessions: by token, and the detached ones oldest first.
struct SessionBook {
    /// Every resumable session (attached or detached) by its token.
    var byToken: [String: Session] = [:]
    /// Detached sessions by the id of the connection they lost.
    var detached: [ConnectionID: Session] = [:]
    /// Detached sessions, oldest first (`--max-detached-sessions` expires the first).
    var detachOrder: [Session] = []
    /// The last `s<N>` handed out.
    var nextNumber: UInt64 = 0
}
