#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory a socket lives in must be ours alone: not a symlink, owned by our uid,
/// and closed to group and others (mode 0700 or stricter).
public enum PrivateDirectory {
    /// Checks `path`, first creating it (and missing parents) with mode 0700 if it is absent.
    public static func ensure(_ path: String, uid: UInt32 = CurrentProcess.uid) throws {
        if try FileSystem.info(path) == nil {
            try FileSystem.makeDirectories(path, permissions: 0o700)
        }
        try check(path, uid: uid)
    }

    /// Checks an existing directory without creating anything.
    public static func check(_ path: String, uid: UInt32 = CurrentProcess.uid) throws {
        guard let info = try FileSystem.info(path) else {
            throw SystemError(call: "lstat(\(path))", errno: ENOENT)
        }
        switch info.kind {
        case .symbolicLink: throw SocketPathError.directoryIsSymlink(path: path)
        case .directory: break
        default: throw SocketPathError.notADirectory(path: path)
        }
        guard info.owner == uid else {
            throw SocketPathError.directoryNotOwned(path: path, owner: info.owner, expected: uid)
        }
        guard info.permissions & 0o077 == 0 else {
            throw SocketPathError.directoryTooOpen(path: path, permissions: info.permissions)
        }
    }
}
