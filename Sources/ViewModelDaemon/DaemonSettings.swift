import CommandLineKit
import Posix
import VMTransport
import VMProtocol

/// The resolved configuration of one daemon run: the daemon's part, plus what the view models
/// are told (``ViewModelDaemon/Setup``).
struct DaemonSettings {
    var daemon: DaemonConfiguration
    /// Where durable view models keep their files.
    var stateDirectory: String
    /// The layered configuration, for `--print-config`.
    var effective: EffectiveConfiguration

    /// Resolves flags, environment, config file and defaults into settings.
    /// - Throws: ``ConfigurationError`` naming the source of a bad value.
    static func resolve(
        _ parsed: ParsedCommand, spec: CommandSpec, identity: DaemonIdentity, environment: [String: String]
    ) throws(ConfigurationError) -> DaemonSettings {
        let file = try configFile(parsed, identity: identity, environment: environment)
        var effective = try ConfigurationResolver(root: spec).resolve(
            commandLine: parsed, environment: environment, file: file)

        // The socket follows the one rule all clients share; its last two steps are not
        // option defaults but come from the environment, so fill them in for --print-config.
        let socket = RuntimePaths.socket(flag: effective.value("socket"), environment: environment,
                                         uid: CurrentProcess.uid, fileName: identity.socketFileName)
        if let index = effective.settings.firstIndex(where: { $0.option.long == "socket" }),
           effective.settings[index].source == .unset
        {
            effective.settings[index].values = [socket.path]
            effective.settings[index].source = socket.source == .runtimeDirectory
                ? .environment(variable: "XDG_RUNTIME_DIR") : .defaultValue
        }
        var stateDirectory = effective.value("state-dir")
        if stateDirectory == nil, let derived = RuntimePaths.stateDirectory(environment: environment, name: identity.name) {
            stateDirectory = derived.path
            if let index = effective.settings.firstIndex(where: { $0.option.long == "state-dir" }) {
                effective.settings[index].values = [derived.path]
                effective.settings[index].source = .environment(variable: derived.source.rawValue)
            }
        }

        var limits = VMLimits()
        limits.maxFrameBytes = try positive("max-frame-bytes", in: effective)
        limits.maxDepth = try positive("max-depth", in: effective)
        limits.maxConnections = try positive("max-connections", in: effective)
        limits.maxInstances = try positive("max-instances", in: effective)
        limits.maxSubscriptionsPerConnection = try positive("max-subscriptions-per-connection", in: effective)
        limits.maxBatchItems = try positive("max-batch-items", in: effective)
        limits.maxOutboundBytes = try positive("max-outbound-bytes", in: effective)
        limits.sessionGraceMs = try nonNegative("session-grace-ms", in: effective, maximum: Int(Int32.max))
        limits.maxDetachedSessions = try nonNegative("max-detached-sessions", in: effective, maximum: Int(Int32.max))

        var allowed = Set<UInt32>()
        for text in effective.values("allow-uid") {
            guard let uid = UInt32(text) else {
                throw ConfigurationError("invalid value '\(text)' for allow-uid: expected a numeric uid",
                                         at: effective.source("allow-uid") ?? .unset)
            }
            allowed.insert(uid)
        }
        var idle: Duration?
        if let text = effective.value("exit-when-idle") {
            guard let seconds = Double(text), seconds > 0, seconds < 1e9 else {
                throw ConfigurationError("invalid value '\(text)' for exit-when-idle: expected a positive number of seconds",
                                         at: effective.source("exit-when-idle") ?? .unset)
            }
            idle = .milliseconds(Int64(seconds * 1000))
        }
        let backendName = effective.value("event-loop") ?? EventLoopBackend.platformDefault.rawValue
        guard let backend = EventLoopBackend(rawValue: backendName), EventLoopBackend.available.contains(backend) else {
            let offered = EventLoopBackend.available.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError("invalid value '\(backendName)' for event-loop: this system offers \(offered)",
                                     at: effective.source("event-loop") ?? .unset)
        }

        var daemon = DaemonConfiguration(
            socketPath: socket.path, socketPathSource: socketSource(effective, chosen: socket), limits: limits,
            slowClient: SlowClientMode(rawValue: effective.value("slow-client") ?? "") ?? .coalesce,
            allowedUIDs: allowed,
            logLevel: LogLevel(rawValue: effective.value("log-level") ?? "") ?? .info,
            logFormat: LogFormat(rawValue: effective.value("log-format") ?? "") ?? .plain,
            exitWhenIdle: idle, version: identity.version, name: identity.name, eventLoop: backend)
        daemon.recordsEveryInstance = effective.flag("record-all")
        return DaemonSettings(
            daemon: daemon, stateDirectory: stateDirectory ?? "/tmp/\(identity.name)-\(CurrentProcess.uid)/state",
            effective: effective)
    }

    /// `--config FILE` (which must exist), else `$XDG_CONFIG_HOME/<name>/<name>.conf` when present.
    private static func configFile(
        _ parsed: ParsedCommand, identity: DaemonIdentity, environment: [String: String]
    ) throws(ConfigurationError) -> ConfigFile? {
        let explicit = parsed.value("config") ?? environment["VMD_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let path: String
        if let explicit {
            path = explicit
        } else if let standard = ConfigFile.standardPath(
            directory: identity.name, fileName: identity.configFileName, environment: environment),
                  (try? FileSystem.info(standard, followingSymlinks: true)) != nil
        {
            path = standard
        } else {
            return nil
        }
        let read: (bytes: [UInt8], info: FileInfo)
        do {
            read = try FileSystem.readRegularFile(path, maxBytes: maxConfigFileBytes)
        } catch {
            throw ConfigurationError("cannot read the config file: \(error)", at: .file(path: path, line: 0))
        }
        // As ssh does with its config: a file others could have written is not obeyed.
        if let problem = ConfigFileTrust.problem(path: path, info: read.info, uid: CurrentProcess.uid) {
            throw ConfigurationError(
                "refusing the config file: \(problem); others could have written it (make it yours, then chmod go-w)",
                at: .file(path: path, line: 0))
        }
        return try ConfigFile(parsing: String(decoding: read.bytes, as: UTF8.self), path: path)
    }

    /// The largest config file read (a few hundred bytes is typical).
    static let maxConfigFileBytes = 1 << 20

    /// Which rule chose the socket, for the start-up log: the resolver saw whether a given path
    /// came from the flag or from `VMD_SOCKET` (RuntimePaths sees both as the one given path);
    /// the runtime directory and the fallback are RuntimePaths' own.
    private static func socketSource(_ effective: EffectiveConfiguration, chosen: RuntimePaths.Choice) -> String {
        if case .environment(let variable)? = effective.source("socket") { return variable }
        return chosen.source.rawValue
    }

    private static func positive(_ long: String, in effective: EffectiveConfiguration) throws(ConfigurationError) -> Int {
        let value = try effective.int(long) ?? 0
        guard value > 0 else {
            throw ConfigurationError("invalid value '\(value)' for \(long): expected a positive integer",
                                     at: effective.source(long) ?? .unset)
        }
        return value
    }

    private static func nonNegative(
        _ long: String, in effective: EffectiveConfiguration, maximum: Int
    ) throws(ConfigurationError) -> Int {
        let value = try effective.int(long) ?? 0
        guard value >= 0, value <= maximum else {
            throw ConfigurationError("invalid value '\(value)' for \(long): expected an integer from 0 to \(maximum)",
                                     at: effective.source(long) ?? .unset)
        }
        return value
    }
}
