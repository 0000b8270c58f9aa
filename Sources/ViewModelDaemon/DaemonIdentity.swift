import VMProtocol

/// Who the daemon is: what `ViewModelDaemon.main` was called with, and the names derived from
/// it (help text, socket file, config file, state directory).
struct DaemonIdentity: Sendable {
    /// The executable's name (`vmd`, `inboxd`): in `--help`, `--version`, log lines and paths.
    let name: String
    /// One line for `--help`.
    let summary: String
    /// The app's own version; `nil` when it has none (then vmd's version stands in).
    let appVersion: String?
    /// The default socket's file name under the runtime directory.
    let socketFileName: String

    init(name: String, summary: String, version: String?, defaultSocketName: String?) {
        self.name = name
        self.summary = summary
        appVersion = version
        socketFileName = defaultSocketName ?? name + ".sock"
    }

    /// The version the daemon reports (`daemon.info`, the start-up log line).
    var version: String { appVersion ?? VMDVersion.current }

    /// `--version`'s line: `vmd 0.1.0 (protocol 1)`, or for an app with its own version
    /// `inboxd 1.2.0 (vmd 0.1.0, protocol 1)`.
    var versionLine: String {
        let level = OpenRPCDocument.protocolLevel
        guard let appVersion, name != "vmd" else { return "\(name) \(version) (protocol \(level))" }
        return "\(name) \(appVersion) (vmd \(VMDVersion.current), protocol \(level))"
    }

    /// The config file's name inside `$XDG_CONFIG_HOME/<name>/`.
    var configFileName: String { name + ".conf" }
}
