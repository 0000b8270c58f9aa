import Posix

/// Whether anyone but its owner could have written a config file, by the rule ssh applies to
/// its own (`StrictModes`): a file that could set `allow-uid` must not be writable by others.
///
/// The file must be owned by the daemon's user or root and writable by neither group nor
/// others, and so must every directory above it (a directory writable by others is accepted
/// only with the sticky bit, as `/tmp`: nobody else can then replace what is in it).
enum ConfigFileTrust {
    /// Why the config file at `path` may have been written by someone else (`info`: `fstat`
    /// of the file as it was read), or `nil` when only its owner, the user or root, can write it.
    static func problem(path: String, info: FileInfo, uid: UInt32) -> String? {
        if let problem = Self.problem(of: info, uid: uid, allowsSticky: false) { return "it " + problem }
        let absolute = path.hasPrefix("/") ? path : (CurrentProcess.workingDirectory ?? "/") + "/" + path
        var directory = FileSystem.parentDirectory(of: absolute) ?? "/"
        while true {
            guard let directoryInfo = try? FileSystem.info(directory, followingSymlinks: true) else {
                return "its directory \(directory) cannot be examined"
            }
            if let problem = Self.problem(of: directoryInfo, uid: uid, allowsSticky: true) {
                return "its directory \(directory) " + problem
            }
            guard directory != "/", let parent = FileSystem.parentDirectory(of: directory), parent != directory else { return nil }
            directory = parent
        }
    }

    /// What is wrong with one path's owner and mode, worded after "it" or "its directory D".
    private static func problem(of info: FileInfo, uid: UInt32, allowsSticky: Bool) -> String? {
        if info.owner != uid, info.owner != 0 {
            return "is owned by uid \(info.owner), not by you (uid \(uid)) or root"
        }
        let sticky: UInt32 = 0o1000
        if info.permissions & 0o022 != 0, !(allowsSticky && info.permissions & sticky != 0) {
            let who = info.permissions & 0o020 != 0 ? (info.permissions & 0o002 != 0 ? "group and others" : "its group") : "others"
            return "is writable by \(who) (mode 0\(String(info.permissions & 0o7777, radix: 8)))"
        }
        return nil
    }
}
