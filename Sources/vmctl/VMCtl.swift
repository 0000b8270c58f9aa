import CommandLineKit
import Posix
import VMProtocol

/// vmctl: parse, dispatch, map failures to exit statuses.
enum VMCtl {
    static func run(_ arguments: [String]) -> Int32 {
        let environment = CurrentProcess.environment
        let console = Console(environment: environment)
        // The completion scripts' hidden helper: not in the spec, so never in help or completion.
        if arguments.first == DynamicCompletion.command {
            return DynamicCompletion.run(Array(arguments.dropFirst()), environment: environment, console: console)
        }
        let parsed: ParsedCommand
        do {
            parsed = try CommandLineParser(root: VMCtlSpec.root).parse(arguments)
        } catch {
            if case .missingSubcommand = error.kind, error.commandPath.count == 1, arguments.contains("--version") {
                return printVersion(console)
            }
            console.error(CommandFailure.usage(error).message, hints: CommandFailure.usage(error).hints)
            return ExitStatus.usage.rawValue
        }
        if parsed.isHelpRequested {
            let width = Int(environment["COLUMNS"] ?? "") ?? 80
            console.line(HelpRenderer(root: VMCtlSpec.root, width: max(40, width)).help(for: parsed.path))
            console.flush()
            return ExitStatus.success.rawValue
        }
        if parsed.flag("version") { return printVersion(console) }
        let invocation = Invocation(parsed: parsed, console: console, environment: environment)
        do {
            try dispatch(invocation)
            console.flush()
            return ExitStatus.success.rawValue
        } catch {
            console.error(error.message, hints: error.hints)
            return error.status.rawValue
        }
    }

    private static func dispatch(_ run: Invocation) throws(CommandFailure) {
        switch run.parsed.path {
        case ["info"]: try QueryCommands.info(run)
        case ["types"]: try QueryCommands.types(run)
        case ["create"]: try InstanceCommands.create(run)
        case ["list"]: try InstanceCommands.list(run)
        case ["destroy"]: try InstanceCommands.destroy(run)
        case ["send"]: try ValueCommands.send(run)
        case ["exec"]: try ValueCommands.exec(run)
        case ["get"]: try ValueCommands.get(run)
        case ["watch"]: try StreamCommands.watch(run)
        case ["monitor"]: try StreamCommands.monitor(run)
        case ["call"]: try CallCommand.run(run)
        case ["record"]: try RecordCommand.run(run)
        case ["tape"]: try TapeCommand.run(run)
        case ["replay"]: try ReplayCommand.run(run)
        case ["gen"]: try GenCommand.run(run)

        case ["wait"]: try DaemonCommands.wait(run)
        case ["daemon", "start"]: try DaemonCommands.start(run)
        case ["daemon", "stop"]: try DaemonCommands.stop(run)
        case ["daemon", "status"]: try DaemonCommands.status(run)
        case ["completion"]:
            let shell = CompletionShell(rawValue: run.argument("SHELL")) ?? .bash
            run.console.line(CompletionScript.render(shell, for: VMCtlSpec.root, dynamic: DynamicCompletion.command))
        default:
            throw CommandFailure(status: .usage, message: "'\(run.parsed.path.joined(separator: " "))' is not implemented")
        }
    }

    private static func printVersion(_ console: Console) -> Int32 {
        console.line("vmctl \(VMCtlSpec.version) (protocol level \(OpenRPCDocument.protocolLevel))")
        console.flush()
        return ExitStatus.success.rawValue
    }
}
