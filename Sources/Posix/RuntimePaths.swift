/// Where vmd's (or a daemon built on it) socket, state and configuration live: pure functions of the environment, so
/// every client computes the same socket path and tests need no real environment.
///
/// Environment values that are empty count as unset; XDG directories that are not absolute
/// are ignored, as the XDG Base Directory specification asks.
public enum RuntimePaths {
    /// Where a chosen path came from (for `--print-config` and error messages).
    public enum Source: String, Equatable, Sendable {
        case flag = "--socket"
        case vmdSocket = "VMD_SOCKET"
        case runtimeDirectory = "XDG_RUNTIME_DIR"
        case fallback = "default"
        case stateHome = "XDG_STATE_HOME"
        case configHome = "XDG_CONFIG_HOME"
        case home = "HOME"
    }

    /// A path and the rule that produced it.
    public struct Choice: Equatable, Sendable {
        public let path: String
        public let source: Source

        public init(path: String, source: Source) {
            self.path = path
            self.source = source
        }
    }

    /// `--socket` > `VMD_SOCKET` > `$XDG_RUNTIME_DIR/<fileName>` > `/tmp/vmd-$UID/<fileName>`.
    ///
    /// `fileName` is `vmd.sock` for vmd and its clients; a daemon built on vmd under another
    /// name may choose its own (`inboxd.sock`), in the same directories.
    public static func socket(
        flag: String?, environment: [String: String], uid: UInt32, fileName: String = "vmd.sock"
    ) -> Choice {
        if let flag, !flag.isEmpty { return Choice(path: flag, source: .flag) }
        if let path = nonEmpty(environment["VMD_SOCKET"]) { return Choice(path: path, source: .vmdSocket) }
        if let runtime = absolute(environment["XDG_RUNTIME_DIR"]) {
            return Choice(path: joined(runtime, fileName), source: .runtimeDirectory)
        }
        return Choice(path: "/tmp/vmd-\(uid)/" + fileName, source: .fallback)
    }

    /// `$XDG_STATE_HOME/<name>`, else `$HOME/.local/state/<name>`; `nil` when neither is usable.
    public static func stateDirectory(environment: [String: String], name: String = "vmd") -> Choice? {
        if let state = absolute(environment["XDG_STATE_HOME"]) {
            return Choice(path: joined(state, name), source: .stateHome)
        }
        if let home = absolute(environment["HOME"]) {
            return Choice(path: joined(home, ".local/state/" + name), source: .home)
        }
        return nil
    }

    /// `$XDG_CONFIG_HOME/<name>`, else `$HOME/.config/<name>`; `nil` when neither is usable.
    public static func configDirectory(environment: [String: String], name: String = "vmd") -> Choice? {
        if let config = absolute(environment["XDG_CONFIG_HOME"]) {
            return Choice(path: joined(config, name), source: .configHome)
        }
        if let home = absolute(environment["HOME"]) {
            return Choice(path: joined(home, ".config/" + name), source: .home)
        }
        return nil
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private static func absolute(_ value: String?) -> String? {
        guard let value = nonEmpty(value), value.hasPrefix("/") else { return nil }
        return value
    }

    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
