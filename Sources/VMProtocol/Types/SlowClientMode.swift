/// What the daemon does with a connection whose outbound buffer is full (`daemon.info`'s
/// `slowClient`); raw values are the wire's.
public enum SlowClientMode: String, Sendable, Hashable, CaseIterable {
    /// Coalesce state outputs, drop event values, report `vm.overflow` once drained.
    case coalesce
    /// Close the connection.
    case disconnect
}
