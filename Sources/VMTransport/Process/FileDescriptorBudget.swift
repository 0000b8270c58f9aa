import VMProtocol
/// How many connections the process's open-file limit leaves room for.
///
/// Every connection holds one descriptor, and the daemon needs others besides: standard
/// input, output and error, the listener, the event loop's own (epoll, its wake-up eventfd,
/// timers, signals), libdispatch's (its epoll and eventfd, made at start-up by
/// ``DispatchWarmUp``, and a timerfd per clock), the spare descriptor kept to refuse
/// connections once descriptors run out (``Daemon``), the service notifier's socket, and the
/// files view models open (SendList's store, for one). A `--max-connections` larger than the
/// limit allows would let accepting exhaust descriptors, and then the first thing that needs
/// one fails (libdispatch traps when it cannot make its epoll descriptor).
package enum FileDescriptorBudget {
    /// Descriptors kept out of the connections' share.
    package static let reserve: UInt64 = 64

    /// The most connections `openFileLimit` (the soft `RLIMIT_NOFILE`) allows: the limit
    /// minus ``reserve``, at least 1.
    package static func maxConnections(openFileLimit: UInt64) -> Int {
        guard openFileLimit > reserve + 1 else { return 1 }
        return Int(clamping: openFileLimit - reserve)
    }

    /// `limits` with `maxConnections` lowered to what `openFileLimit` allows, or `nil` when
    /// it already fits.
    package static func clamp(_ limits: VMLimits, openFileLimit: UInt64) -> VMLimits? {
        let allowed = maxConnections(openFileLimit: openFileLimit)
        guard limits.maxConnections > allowed else { return nil }
        var clamped = limits
        clamped.maxConnections = allowed
        return clamped
    }
}
