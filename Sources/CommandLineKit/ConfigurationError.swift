/// A configuration that cannot be used: a config-file syntax error, an unknown key, or a value
/// of the wrong type or not among the allowed values, from the file, the environment or the
/// command line. The message names the place (file and line, or variable) and what was wrong.
///
/// ```
/// error: /home/ann/.config/vmd/vmd.toml:3: unknown key 'max-conections'; did you mean 'max-connections'?
/// error: environment variable VMD_SLOW_CLIENT: invalid value 'drop': expected one of coalesce, disconnect
/// ```
package struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the bad value was found.
    package var source: ValueSource
    /// What was wrong, without the location.
    package var message: String

    /// Creates an error.
    package init(_ message: String, at source: ValueSource) {
        self.message = message
        self.source = source
    }

    /// The exit status for a configuration error: 2, like a usage error (the user must fix
    /// their input before anything can run).
    package var exitCode: Int32 { 2 }

    /// The location of the problem: `PATH:LINE`, `environment variable NAME`, `option --name`.
    package var location: String {
        switch source {
        case .commandLine(let option): "option \(option)"
        case .environment(let variable): "environment variable \(variable)"
        case .file(let path, let line): "\(path):\(line)"
        case .defaultValue: "default value"
        case .unset: "configuration"
        }
    }

    /// `error: LOCATION: MESSAGE`, the text for standard error.
    package var description: String { "error: \(location): \(message)" }
}
