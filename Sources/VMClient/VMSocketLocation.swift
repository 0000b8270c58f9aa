import Posix

/// Where the daemon's socket is, and which rule of the protocol's socket-path rule chose it.
///
/// The rule (first match wins): an explicit path (`--socket`), `VMD_SOCKET`,
/// `$XDG_RUNTIME_DIR/vmd.sock`, `/tmp/vmd-$UID/vmd.sock`. The daemon applies the same rule,
/// so a client and a daemon started in one environment meet without configuration.
public struct VMSocketLocation: Sendable, Hashable, CustomStringConvertible {
    /// The socket path.
    public let path: String
    /// What chose it: `"--socket"`, `"VMD_SOCKET"`, `"XDG_RUNTIME_DIR"` or `"default"`.
    public let source: String

    /// A location given directly.
    public init(path: String, source: String = "--socket") {
        self.path = path
        self.source = source
    }

    /// Applies the socket-path rule to `explicitPath` and this process's environment and uid.
    public static func resolve(explicitPath: String? = nil) -> VMSocketLocation {
        resolve(explicitPath: explicitPath, environment: CurrentProcess.environment)
    }

    /// Applies the socket-path rule to `explicitPath`, `environment` and `uid` (nil: this
    /// process's). Two functions rather than default arguments: a public default value may not
    /// name Posix, which is `package`.
    public static func resolve(
        explicitPath: String? = nil,
        environment: [String: String],
        uid: UInt32? = nil
    ) -> VMSocketLocation {
        let choice = RuntimePaths.socket(flag: explicitPath, environment: environment, uid: uid ?? CurrentProcess.uid)
        return VMSocketLocation(path: choice.path, source: choice.source.rawValue)
    }

    /// `PATH (from SOURCE)`, for messages.
    public var description: String { "\(path) (from \(source))" }

    /// The checked `sockaddr_un` form, or ``VMClientError/invalidSocketPath(path:reason:)``.
    func address() throws(VMClientError) -> UnixSocketAddress {
        do {
            return try UnixSocketAddress(path: path)
        } catch {
            throw .invalidSocketPath(path: path, reason: "\(error)")
        }
    }
}
