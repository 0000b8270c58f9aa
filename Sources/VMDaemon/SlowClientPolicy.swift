/// What the daemon does with a connection whose outbound buffer is full (`--slow-client`).
public enum SlowClientPolicy: String, Sendable, Hashable, CaseIterable {
    /// Stop reading its requests; the server coalesces state outputs and reports lost events
    /// with `vm.overflow` once the buffer drains (the default).
    case coalesce
    /// Close the connection at once, and log it.
    case disconnect
}
