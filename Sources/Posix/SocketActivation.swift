#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// systemd socket activation (`sd_listen_fds` semantics): sockets passed from fd 3 upwards
/// when `LISTEN_PID` names this process and `LISTEN_FDS` counts them.
public enum SocketActivation {
    /// The first passed descriptor (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// The passed descriptors named by `environment`, or `[]` when the variables are absent,
    /// malformed, or meant for another process (`LISTEN_PID` != `pid`). Pure; touches nothing.
    public static func descriptors(environment: [String: String], pid: Int32) -> [Int32] {
        guard let listenPID = environment["LISTEN_PID"].flatMap({ Int32($0) }), listenPID == pid,
              let count = environment["LISTEN_FDS"].flatMap({ Int32($0) }), count >= 1, count < 4096
        else { return [] }
        return Array(firstDescriptor..<(firstDescriptor + count))
    }

    /// The names from `LISTEN_FDNAMES` (colon separated), aligned with ``descriptors(environment:pid:)``.
    public static func names(environment: [String: String]) -> [String] {
        guard let names = environment["LISTEN_FDNAMES"], !names.isEmpty else { return [] }
        return names.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }

    /// Takes the passed descriptors for this process: marks each close-on-exec (so children
    /// such as a spawned helper do not inherit the listening socket) and unsets `LISTEN_PID`,
    /// `LISTEN_FDS` and `LISTEN_FDNAMES` so they are not passed on. Call once, at start-up,
    /// before other threads read the environment. Returns `[]` when not socket-activated.
    public static func takeDescriptors() throws -> [FileDescriptor] {
        let numbers = descriptors(environment: CurrentProcess.environment, pid: CurrentProcess.pid)
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        let owned = numbers.map { FileDescriptor(adopting: $0) }
        for descriptor in owned { try descriptor.setCloseOnExec() }
        return owned
    }

    /// The first passed socket, adopted as a nonblocking ``UnixListener`` (whose file is
    /// never unlinked: systemd owns it), or `nil` when not socket-activated.
    public static func takeListener(address: UnixSocketAddress? = nil) throws -> UnixListener? {
        let passed = try takeDescriptors()
        guard let first = passed.first else { return nil }
        return try UnixListener.adopt(first, address: address)
    }
}
