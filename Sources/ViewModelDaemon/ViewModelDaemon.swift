import CommandLineKit
import Posix
import VMTransport
import ViewModelKit

/// The daemon entry point: an app's whole `main.swift` is one call, and the result is vmd in
/// every respect (every flag, `VMD_*` variable and config key, socket activation, `READY=1`,
/// idle exit, `--print-config`, logging, exit codes) serving the app's view models.
///
/// ```swift
/// import ViewModelDaemon
/// ViewModelDaemon.main(name: "inboxd", summary: "Serves the inbox view models.") { types, setup in
///     try types.register(Inbox.self, services: LiveMailbox(directory: setup.stateDirectory))
///     try types.register(MessageRow.self)
/// }
/// ```
///
/// The name appears in `--help`, `--version` and the start-up log line, and names the app's
/// files: the config file `$XDG_CONFIG_HOME/<name>/<name>.conf`, the state directory
/// `$XDG_STATE_HOME/<name>`, and (unless `defaultSocketName` says otherwise) the default socket
/// `$XDG_RUNTIME_DIR/<name>.sock`, else `/tmp/vmd-$UID/<name>.sock`. `vmd` itself is this call
/// with the name `vmd`, registering the built-in catalog (Sources/vmd/main.swift).
public enum ViewModelDaemon {
    /// The closure that fills the daemon's registry, called once at start-up on the loop thread
    /// before the daemon accepts connections. A throw stops the start (exit status 1).
    public typealias Register = (inout ViewModelRegistry, Setup) throws -> Void

    /// Runs the daemon with this process's command line and environment, then exits with its
    /// status (see `--help`'s "Exit status": 0 normal stop, 1 could not start, 2 bad
    /// configuration).
    ///
    /// - Parameters:
    ///   - name: The executable's name, in help, version, log lines and file paths.
    ///   - summary: One line for `--help`.
    ///   - version: The app's version for `--version` and `daemon.info`; `nil` reports vmd's.
    ///   - defaultSocketName: The default socket's file name; `nil` means `"<name>.sock"`.
    ///   - register: Registers the types the daemon serves.
    public static func main(
        name: String, summary: String, version: String? = nil, defaultSocketName: String? = nil,
        register: Register
    ) -> Never {
        let status = run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: CurrentProcess.environment,
            name: name, summary: summary, version: version, defaultSocketName: defaultSocketName, register: register)
        CurrentProcess.exit(status)
    }

    /// What ``main(name:summary:version:defaultSocketName:register:)`` does before exiting,
    /// with the command line and environment given: parse, resolve the configuration, then
    /// print help, the version or the configuration, or run the daemon until it stops.
    /// Returns the exit status.
    public static func run(
        arguments: [String], environment: [String: String],
        name: String, summary: String, version: String? = nil, defaultSocketName: String? = nil,
        register: Register
    ) -> Int32 {
        let identity = DaemonIdentity(name: name, summary: summary, version: version, defaultSocketName: defaultSocketName)
        let spec = DaemonCommand.spec(for: identity)
        let parsed: ParsedCommand
        do {
            parsed = try CommandLineParser(root: spec).parse(arguments)
        } catch {
            CurrentProcess.writeToStandardError(error.description + "\n")
            return error.exitCode
        }
        if parsed.isHelpRequested {
            print(HelpRenderer(root: spec).help(for: parsed.path), terminator: "")
            return DaemonRunner.ExitStatus.success
        }
        if parsed.flag("version") {
            print(identity.versionLine)
            return DaemonRunner.ExitStatus.success
        }
        let settings: DaemonSettings
        do {
            settings = try DaemonSettings.resolve(parsed, spec: spec, identity: identity, environment: environment)
        } catch {
            CurrentProcess.writeToStandardError(error.description + "\n")
            return error.exitCode
        }
        if parsed.flag("print-config") {
            print(settings.effective.rendered(), terminator: "")
            return DaemonRunner.ExitStatus.success
        }
        let setup = Setup(name: name, stateDirectory: settings.stateDirectory,
                          socketPath: settings.daemon.socketPath, environment: environment)
        return DaemonRunner.run(configuration: settings.daemon, environment: environment) { context in
            var registry = ViewModelRegistry()
            try register(&registry, setup)
            return try ServerWiring.makeHandler(registry: registry, context: context, stateDirectory: setup.stateDirectory)
        }
    }
}
