import CommandLineKit
import Posix

/// The daemon's command line (vmd's, or an app's under its own name): one spec drives parsing,
/// `--help`, the environment variables and the config-file keys (one precedence rule:
/// flag > `VMD_*` environment > config file > default). Options, variables and keys are the
/// same for every name; only the name, the summary and the default paths differ.
enum DaemonCommand {
    static func spec(for identity: DaemonIdentity) -> CommandSpec {
        let name = identity.name
        let socket = identity.socketFileName
        let configFile = "$XDG_CONFIG_HOME/\(name)/\(identity.configFileName)"
        return CommandSpec(
            name: name,
            summary: identity.summary,
            discussion: """
                \(name) runs in the foreground and logs to standard error (journald priorities when \
                JOURNAL_STREAM is set). Every option can also come from a VMD_* environment variable \
                or from the config file \(configFile) (key = value lines); a flag \
                beats the environment, which beats the file, which beats the default. \
                --print-config shows the effective values and where each came from. A config file \
                others could write (not yours or root's, group- or world-writable, or in such a \
                directory without the sticky bit) is refused, as ssh refuses its own.

                The socket is --socket, else VMD_SOCKET, else the config file's socket key, else \
                $XDG_RUNTIME_DIR/\(socket), else /tmp/vmd-$UID/\(socket) (the rule every client \
                uses; clients do not read the config file). Started by systemd socket \
                activation, \(name) serves the socket it is given.
                """,
            examples: [
                CommandExample(name, "Serve on the default socket."),
                CommandExample("\(name) --socket /tmp/\(name)-test.sock --log-level debug", "A private daemon for experiments."),
                CommandExample("\(name) --print-config", "Show the effective configuration and its sources."),
            ],
            options: [
                .value("socket", valueName: "PATH", help: "Socket path (see the rule above).", environment: "VMD_SOCKET",
                       configKey: "socket"),
                .value("config", valueName: "FILE", help: "Config file to read instead of \(configFile).",
                       environment: "VMD_CONFIG"),
                .value("state-dir", valueName: "DIR",
                       help: "Where durable view models keep their files (default $XDG_STATE_HOME/\(name)).",
                       environment: "VMD_STATE_DIR", configKey: "state-dir"),
                limit("max-frame-bytes", "1048576", "Largest accepted message, in bytes; a longer one closes the connection."),
                limit("max-depth", "64", "Deepest nesting of arrays and objects in a message."),
                limit("max-connections", "4096", "Connections served at once."),
                limit("max-instances", "100000", "Live view-model instances."),
                limit("max-subscriptions-per-connection", "1024", "Subscriptions and monitors per connection."),
                limit("max-batch-items", "256", "Items in one JSON-RPC batch."),
                limit("max-outbound-bytes", "4194304", "Bytes queued for one connection before it counts as a slow reader."),
                limit("session-grace-ms", "60000",
                      "Longest wait of a detached resumable session for session.resume, in ms (0: none resumable)."),
                limit("max-detached-sessions", "100", "Detached sessions kept at once; one more expires the oldest."),
                .value("slow-client", valueName: "POLICY", default: "coalesce", allowedValues: ["coalesce", "disconnect"],
                       help: "A slow reader's outputs coalesce (reported by vm.overflow), or it is disconnected.",
                       environment: "VMD_SLOW_CLIENT", configKey: "slow-client"),
                .repeatable("allow-uid", valueName: "UID",
                            help: "Also admit peers running as UID (repeatable; the daemon's own uid is always admitted).",
                            environment: "VMD_ALLOW_UID", configKey: "allow-uid"),
                .value("log-level", valueName: "LEVEL", default: "info",
                       allowedValues: ["error", "warning", "notice", "info", "debug"],
                       help: "Least important events logged.", environment: "VMD_LOG_LEVEL", configKey: "log-level"),
                .value("log-format", valueName: "FORMAT", default: "plain", allowedValues: ["plain", "json"],
                       help: "Log lines as text, or one JSON object per line.",
                       environment: "VMD_LOG_FORMAT", configKey: "log-format"),
                .value("exit-when-idle", valueName: "SECONDS",
                       help: "Exit after SECONDS without any connection (for socket activation). "
                           + "Daemon-scoped instances end with the process.",
                       environment: "VMD_EXIT_WHEN_IDLE", configKey: "exit-when-idle"),
                .value("event-loop", valueName: "BACKEND", default: EventLoopBackend.platformDefault.rawValue,
                       allowedValues: EventLoopBackend.allCases.map(\.rawValue),
                       help: "How the event loop waits: epoll (Linux only) or poll (portable).",
                       environment: "VMD_EVENT_LOOP", configKey: "event-loop"),
                .flag("record-all", help: "Record every instance from its creation, as vm.create's record: true does (for development; 'vmctl tape INSTANCE' reads a tape).",
                      environment: "VMD_RECORD_ALL", configKey: "record-all"),
                .flag("print-config", help: "Print the effective configuration with the source of each value, then exit."),
                .flag("version", help: "Print the version, then exit."),
            ],
            sections: [
                HelpSection("Exit status", rows: [
                    .init("0", "stopped normally (SIGTERM, SIGINT, daemon.shutdown, idle exit)"),
                    .init("1", "could not start: socket path unusable, or another \(name) is listening on it"),
                    .init("2", "bad command line, environment variable or config file"),
                ]),
            ])
    }

    private static func limit(_ long: String, _ defaultValue: String, _ help: String) -> OptionSpec {
        .value(long, valueName: "N", default: defaultValue, help: help,
               environment: "VMD_" + long.uppercased().replacing("-", with: "_"), configKey: long)
    }
}
