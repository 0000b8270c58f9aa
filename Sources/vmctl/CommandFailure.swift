import CommandLineKit
import VMClient

/// vmctl's exit statuses, as documented in `vmctl --help`.
enum ExitStatus: Int32 {
    case success = 0
    /// The daemon answered with an error (or sent something vmctl cannot read).
    case daemonError = 1
    case usage = 2
    /// No daemon could be reached.
    case unreachable = 3
    /// Ctrl-C stopped the command (128 + SIGINT, as shells report it).
    case interrupted = 130
}

/// Why a command stopped: the exit status and what standard error says.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
    var hints: [String] = []

    /// A usage error found after parsing (invalid JSON, a malformed KEY=VALUE), worded like
    /// CommandLineKit's own: the problem, the usage line, where to read more.
    static func usage(_ message: String, _ parsed: ParsedCommand) -> CommandFailure {
        let help = parsed.path.isEmpty ? "vmctl --help" : "vmctl help " + parsed.path.joined(separator: " ")
        return CommandFailure(status: .usage, message: message,
                              hints: ["usage: \(parsed.usage)", "Run '\(help)' for more information."])
    }

    static func usage(_ error: UsageError) -> CommandFailure {
        CommandFailure(status: .usage, message: error.message,
                       hints: ["usage: \(error.usage)", "Run '\(error.commandPath.count > 1 ? "vmctl help " + error.commandPath.dropFirst().joined(separator: " ") : "vmctl --help")' for more information."])
    }

    /// Ctrl-C cancelled the command's work in the daemon.
    static let interrupted = CommandFailure(status: .interrupted, message: "cancelled: Ctrl-C cancelled the action in the daemon")

    /// What a client error means to a person, with how to fix it.
    static func client(_ error: VMClientError, at location: VMSocketLocation) -> CommandFailure {
        switch error {
        case .remote(let remote):
            return RemoteErrorWording.failure(remote)
        case .cannotConnect(_, let reason):
            return CommandFailure(
                status: .unreachable, message: "cannot reach vmd at \(location): \(reason)",
                hints: ["Start it with 'vmctl daemon start' (or run 'vmd &'), or point --socket or VMD_SOCKET at it."])
        case .invalidSocketPath(_, let reason):
            return CommandFailure(status: .unreachable, message: "cannot use the socket path \(location): \(reason)")
        case .disconnected, .timedOut:
            return CommandFailure(status: .unreachable, message: error.description,
                                  hints: ["Is vmd still running? 'vmctl daemon status' tells."])
        case .closed, .protocolViolation, .unsupportedProtocolLevel:
            return CommandFailure(status: .daemonError, message: error.description)
        }
    }
}
