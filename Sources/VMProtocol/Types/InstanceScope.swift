/// The lifetime of an instance (`vm.create`'s `scope`); raw values are the wire's.
public enum InstanceScope: String, Sendable, Hashable, CaseIterable {
    /// Lives until `vm.destroy`, its parent's destruction or the daemon's shutdown.
    case daemon
    /// Also destroyed when the connection that created it closes.
    case connection
}
