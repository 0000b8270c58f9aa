/// Why an instance went away; the raw values are the wire's `vm.closed` reasons.
public enum CloseReason: String, Sendable, Hashable, CaseIterable {
    /// `vm.destroy` of this instance.
    case destroyed
    /// Its parent was destroyed (by any cause).
    case parentDestroyed
    /// It was connection-scoped and its creating connection closed.
    case ownerDisconnected
    /// The daemon is stopping.
    case shutdown
}
