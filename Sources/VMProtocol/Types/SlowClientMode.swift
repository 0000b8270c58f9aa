/// What the daemon does with a connection whose outbound buffer is full (`--slow-client`,
/// `daemon.info`'s `slowClient`); raw values are the wire's and the option's.
public enum SlowClientMode: String, Sendable, Hashable, CaseIterable {
    /// Coalesce state outputs, drop event values, report `vm.overflow` once drained.
    case coalesce
    /// Close the connection.
    case disconnect
}
