#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// Start-up safety for a daemon's socket path: a private directory, no second daemon on the
/// same path, and a stale socket file (left by a crash) replaced, never anything else.
public enum SocketPathGuard {
    /// What is found at a socket path.
    public enum Occupant: Equatable, Sendable {
        /// Nothing exists there.
        case nothing
        /// A socket file nobody listens on (connect was refused): safe to unlink.
        case staleSocket
        /// Something accepted (or queued) our connect: a live listener.
        case liveListener
        /// A file that is not a socket; it must never be deleted.
        case notASocket
    }

    /// Looks at `address` without changing anything: `lstat`, then a nonblocking connect.
    public static func probe(_ address: UnixSocketAddress) throws -> Occupant {
        if !address.isAbstract {
            guard let info = try FileSystem.info(address.path) else { return .nothing }
            guard info.kind == .socket else { return .notASocket }
        }
        do {
            let probe = try UnixSocket.connectNonBlocking(to: address)
            try probe.close()
            return .liveListener
        } catch let error as SystemError {
            switch error.errno {
            case EAGAIN: return .liveListener // backlog full: someone is listening, just busy
            case ECONNREFUSED: return address.isAbstract ? .nothing : .staleSocket
            case ENOENT: return .nothing // removed between lstat and connect
            default: throw error
            }
        }
    }

    /// Makes `address` ready for ``UnixListener/bind(to:backlog:)``:
    /// checks (and creates, mode 0700) the private parent directory when asked, refuses a live
    /// listener or a non-socket file, and unlinks a stale socket. Returns what it found.
    @discardableResult
    public static func prepare(_ address: UnixSocketAddress, requirePrivateDirectory: Bool = true) throws -> Occupant {
        if requirePrivateDirectory, let directory = address.parentDirectory {
            try PrivateDirectory.ensure(directory)
        }
        let occupant = try probe(address)
        switch occupant {
        case .nothing:
            break
        case .liveListener:
            throw SocketPathError.alreadyListening(path: address.path)
        case .notASocket:
            throw SocketPathError.notASocket(path: address.path)
        case .staleSocket:
            try FileSystem.remove(address.path)
        }
        return occupant
    }
}
