/// Why a socket path or its directory was refused, in words a person can act on.
public enum SocketPathError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyPath
    case invalidPath(path: String)
    /// The path does not fit in `sun_path`.
    case pathTooLong(path: String, bytes: Int, limit: Int)
    /// Something answered a connect on the path: another daemon owns it.
    case alreadyListening(path: String)
    /// The path exists and is not a socket; it is never deleted.
    case notASocket(path: String)
    /// The socket's directory is a symbolic link.
    case directoryIsSymlink(path: String)
    /// The socket's directory exists but is not a directory.
    case notADirectory(path: String)
    /// The socket's directory belongs to someone else.
    case directoryNotOwned(path: String, owner: UInt32, expected: UInt32)
    /// The socket's directory lets group or others in.
    case directoryTooOpen(path: String, permissions: UInt32)

    public var description: String {
        switch self {
        case .emptyPath:
            return "the socket path is empty"
        case .invalidPath(let path):
            return "the socket path contains a NUL byte: \(path)"
        case .pathTooLong(let path, let bytes, let limit):
            return "socket path is \(bytes) bytes, longer than the \(limit) that fit in sun_path; "
                + "choose a shorter path: \(path)"
        case .alreadyListening(let path):
            return "a live vmd is already listening on \(path); stop it first or choose another socket path"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; refusing to replace it (move it away or choose another path)"
        case .directoryIsSymlink(let path):
            return "socket directory \(path) is a symbolic link; refusing to use it"
        case .notADirectory(let path):
            return "socket directory \(path) exists and is not a directory"
        case .directoryNotOwned(let path, let owner, let expected):
            return "socket directory \(path) is owned by uid \(owner), not by uid \(expected); refusing to use it"
        case .directoryTooOpen(let path, let permissions):
            return "socket directory \(path) has mode \(octal(permissions)); it must not be accessible to "
                + "group or others (run: chmod 700 \(path))"
        }
    }
}

private func octal(_ value: UInt32) -> String {
    let digits = String(value, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
