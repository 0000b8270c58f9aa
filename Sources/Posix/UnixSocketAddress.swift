import CPosix

/// An `AF_UNIX` address: a filesystem path, or an abstract name (Linux; written `@name`).
///
/// Construction checks the `sun_path` limit, so a too-long path fails at once with a message
/// that names the limit and the path, instead of a bare `ENAMETOOLONG` at `bind` time.
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The path as given (abstract names keep their leading `@`).
    public let path: String
    /// The bytes that go into `sun_path` (an abstract name starts with a NUL byte).
    let sunPathBytes: [UInt8]

    /// The longest filesystem path that fits, in bytes (107 on Linux: 108 minus the NUL).
    public static var maxPathBytes: Int { cposix_sun_path_capacity() - 1 }

    /// A filesystem socket path; an `@` prefix means an abstract name (as systemd writes them).
    public init(path: String) throws {
        guard !path.isEmpty else { throw SocketPathError.emptyPath }
        if path.utf8.first == UInt8(ascii: "@") {
            let name = Array(path.utf8.dropFirst())
            guard name.count + 1 <= cposix_sun_path_capacity() else {
                throw SocketPathError.pathTooLong(path: path, bytes: name.count + 1, limit: cposix_sun_path_capacity())
            }
            self.path = path
            self.sunPathBytes = [0] + name
            return
        }
        let bytes = Array(path.utf8)
        guard !bytes.contains(0) else { throw SocketPathError.invalidPath(path: path) }
        guard bytes.count <= Self.maxPathBytes else {
            throw SocketPathError.pathTooLong(path: path, bytes: bytes.count, limit: Self.maxPathBytes)
        }
        self.path = path
        self.sunPathBytes = bytes
    }

    /// True for a Linux abstract-namespace name (no file on disk).
    public var isAbstract: Bool { sunPathBytes.first == 0 }

    /// The directory holding the socket file (`nil` for abstract names or a bare file name).
    public var parentDirectory: String? {
        guard !isAbstract else { return nil }
        return FileSystem.parentDirectory(of: path)
    }

    public var description: String { path }
}
