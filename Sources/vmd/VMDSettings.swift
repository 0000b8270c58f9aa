import CommandLineKit
import Posix
import VMDaemon

/// The resolved configuration of one `vmd` run: the daemon's part, plus what only `vmd` uses.
struct VMDSettings {
    var daemon: DaemonConfiguration
    /// Where durable view models keep their files, if anywhere.
    var stateDirectory: String?
    /// The layered configuration, for `--print-config`.
    var effective: EffectiveConfiguration

    /// Resolves flags, environment, config file and defaults into settings.
    /// - Throws: ``ConfigurationError`` naming the source of a bad value.
    static func resolve(_ parsed: ParsedCommand, environment: [String: String]) throws(ConfigurationError) -> VMDSettings {
        let file = try configFile(parsed, environment: environment)
        var effective = try ConfigurationResolver(root: VMDCommand.spec).resolve(
            commandLine: parsed, environment: environment, file: file)

        // The socket follows the one rule all clients share; its last two steps are not
        // option defaults but come from the environment, so fill them in for --print-config.
        let socket = RuntimePaths.socket(flag: effective.value("socket"), environment: environment, uid: CurrentProcess.uid)
        if let index = effective.settings.firstIndex(where: { $0.option.long == "socket" }),
           effective.settings[index].source == .unset
        {
            effective.settings[index].values = [socket.path]
            effective.settings[index].source = socket.source == .runtimeDirectory
                ? .environment(variable: "XDG_RUNTIME_DIR") : .defaultValue
        }
        var stateDirectory = effective.value("state-dir")
        if stateDirectory == nil, let derived = RuntimePaths.stateDirectory(environment: environment) {
            stateDirectory = derived.path
            if let index = effective.settings.firstIndex(where: { $0.option.long == "state-dir" }) {
                effective.settings[index].values = [derived.path]
                effective.settings[index].source = .environment(variable: derived.source.rawValue)
            }
        }

        var limits = DaemonLimits()
        limits.maxFrameBytes = try positive("max-frame-bytes", in: effective)
        limits.maxDepth = try positive("max-depth", in: effective)
        limits.maxConnections = try positive("max-connections", in: effective)
        limits.maxInstances = try positive("max-instances", in: effective)
        limits.maxSubscriptionsPerConnection = try positive("max-subscriptions-per-connection", in: effective)
        limits.maxBatchItems = try positive("max-batch-items", in: effective)
        limits.maxOutboundBytes = try positive("max-outbound-bytes", in: effective)

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

        let daemon = DaemonConfiguration(
            socketPath: socket.path, socketPathSource: socket.source.rawValue, limits: limits,
            slowClient: SlowClientPolicy(rawValue: effective.value("slow-client") ?? "") ?? .coalesce,
            allowedUIDs: allowed,
            logLevel: LogLevel(rawValue: effective.value("log-level") ?? "") ?? .info,
            logFormat: LogFormat(rawValue: effective.value("log-format") ?? "") ?? .plain,
            exitWhenIdle: idle, version: VMDCommand.version)
        return VMDSettings(daemon: daemon, stateDirectory: stateDirectory, effective: effective)
    }

    /// `--config FILE` (which must exist), else `$XDG_CONFIG_HOME/vmd/vmd.conf` when present.
    private static func configFile(_ parsed: ParsedCommand, environment: [String: String]) throws(ConfigurationError) -> ConfigFile? {
        let explicit = parsed.value("config") ?? environment["VMD_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let path: String
        if let explicit {
            path = explicit
        } else if let standard = ConfigFile.standardPath(directory: "vmd", fileName: "vmd.conf", environment: environment),
                  (try? FileSystem.info(standard, followingSymlinks: true)) != nil
        {
            path = standard
        } else {
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            throw ConfigurationError("cannot read the config file: \(error)", at: .file(path: path, line: 0))
        }
        return try ConfigFile(parsing: String(decoding: bytes, as: UTF8.self), path: path)
    }

    private static func positive(_ long: String, in effective: EffectiveConfiguration) throws(ConfigurationError) -> Int {
        let value = try effective.int(long) ?? 0
        guard value > 0 else {
            throw ConfigurationError("invalid value '\(value)' for \(long): expected a positive integer",
                                     at: effective.source(long) ?? .unset)
        }
        return value
    }
}
