/// Where vmd's socket, state and configuration live: pure functions of the environment, so
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

    /// `--socket` > `VMD_SOCKET` > `$XDG_RUNTIME_DIR/vmd.sock` > `/tmp/vmd-$UID/vmd.sock`.
    public static func socket(flag: String?, environment: [String: String], uid: UInt32) -> Choice {
        if let flag, !flag.isEmpty { return Choice(path: flag, source: .flag) }
        if let path = nonEmpty(environment["VMD_SOCKET"]) { return Choice(path: path, source: .vmdSocket) }
        if let runtime = absolute(environment["XDG_RUNTIME_DIR"]) {
            return Choice(path: joined(runtime, "vmd.sock"), source: .runtimeDirectory)
        }
        return Choice(path: "/tmp/vmd-\(uid)/vmd.sock", source: .fallback)
    }

    /// `$XDG_STATE_HOME/vmd`, else `$HOME/.local/state/vmd`; `nil` when neither is usable.
    public static func stateDirectory(environment: [String: String]) -> Choice? {
        if let state = absolute(environment["XDG_STATE_HOME"]) {
            return Choice(path: joined(state, "vmd"), source: .stateHome)
        }
        if let home = absolute(environment["HOME"]) {
            return Choice(path: joined(home, ".local/state/vmd"), source: .home)
        }
        return nil
    }

    /// `$XDG_CONFIG_HOME/vmd`, else `$HOME/.config/vmd`; `nil` when neither is usable.
    public static func configDirectory(environment: [String: String]) -> Choice? {
        if let config = absolute(environment["XDG_CONFIG_HOME"]) {
            return Choice(path: joined(config, "vmd"), source: .configHome)
        }
        if let home = absolute(environment["HOME"]) {
            return Choice(path: joined(home, ".config/vmd"), source: .home)
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
