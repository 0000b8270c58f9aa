/// Where a configuration value came from, for `--print-config` and for error messages.
package enum ValueSource: Sendable, Hashable, CustomStringConvertible {
    /// Given on the command line as this option (`--socket`).
    case commandLine(option: String)
    /// Read from this environment variable.
    case environment(variable: String)
    /// Read from a config file, at this line (1-based).
    case file(path: String, line: Int)
    /// The option's declared default.
    case defaultValue
    /// Nothing set it and it has no default.
    case unset

    /// `flag --socket`, `env VMD_SOCKET`, `file /etc/vmd.toml:3`, `default`, `not set`.
    package var description: String {
        switch self {
        case .commandLine(let option): "flag \(option)"
        case .environment(let variable): "env \(variable)"
        case .file(let path, let line): "file \(path):\(line)"
        case .defaultValue: "default"
        case .unset: "not set"
        }
    }
}
