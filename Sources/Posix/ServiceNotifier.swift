import CPosix

/// Sends `sd_notify`-style state changes (`READY=1`, `STOPPING=1`, `STATUS=…`) to the
/// service manager's datagram socket named by `NOTIFY_SOCKET` (a path, or `@name` for an
/// abstract socket). Without `NOTIFY_SOCKET` there is no notifier and nothing to do.
public final class ServiceNotifier: Sendable {
    public let address: UnixSocketAddress
    private let socket: FileDescriptor

    /// A notifier for `NOTIFY_SOCKET` in `environment`, or `nil` when it is unset or empty.
    public convenience init?(environment: [String: String]) throws {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        try self.init(address: try UnixSocketAddress(path: path))
    }

    public init(address: UnixSocketAddress) throws {
        self.address = address
        socket = FileDescriptor(adopting: try retryingOnInterrupt("socket(AF_UNIX, SOCK_DGRAM)") {
            cposix_unix_socket(1, 0)
        })
    }

    /// Sends one datagram of newline-separated `KEY=VALUE` assignments.
    public func notify(_ assignments: String) throws {
        let payload = Array(assignments.utf8)
        let target = address.sunPathBytes
        let fd = socket.rawValue
        try retryingOnInterrupt("sendto(\(address.path))") {
            payload.withUnsafeBytes { bytes in
                target.withUnsafeBufferPointer { path in
                    guard let base = bytes.baseAddress else { return 0 }
                    return cposix_unix_sendto(fd, base, bytes.count, path.baseAddress, path.count)
                }
            }
        }
    }

    /// `READY=1` (with an optional `STATUS=`): start-up is complete, the socket accepts.
    public func ready(status: String? = nil) throws {
        try notify(status.map { "READY=1\nSTATUS=\($0)" } ?? "READY=1")
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping(status: String? = nil) throws {
        try notify(status.map { "STOPPING=1\nSTATUS=\($0)" } ?? "STOPPING=1")
    }

    /// `STATUS=…`: a one-line status shown by `systemctl status`.
    public func status(_ text: String) throws {
        try notify("STATUS=\(text)")
    }

    /// `MAINPID=…`, for a process that forks off the real daemon (not vmd's case; here for completeness).
    public func mainPID(_ pid: Int32) throws {
        try notify("MAINPID=\(pid)")
    }
}
