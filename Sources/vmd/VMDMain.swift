import CommandLineKit
import Posix
import VMDaemon

/// `vmd`: parse the command line, resolve the configuration, then run the daemon.
enum VMDMain {
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let parsed: ParsedCommand
        do {
            parsed = try CommandLineParser(root: VMDCommand.spec).parse(arguments)
        } catch {
            CurrentProcess.writeToStandardError(error.description + "\n")
            return error.exitCode
        }
        if parsed.isHelpRequested {
            print(HelpRenderer(root: VMDCommand.spec).help(for: parsed.path), terminator: "")
            return DaemonRunner.ExitStatus.success
        }
        if parsed.flag("version") {
            print("vmd \(VMDCommand.version) (protocol 1)")
            return DaemonRunner.ExitStatus.success
        }
        let settings: VMDSettings
        do {
            settings = try VMDSettings.resolve(parsed, environment: environment)
        } catch {
            CurrentProcess.writeToStandardError(error.description + "\n")
            return error.exitCode
        }
        if parsed.flag("print-config") {
            print(settings.effective.rendered(), terminator: "")
            return DaemonRunner.ExitStatus.success
        }
        return DaemonRunner.run(configuration: settings.daemon, environment: environment) { context in
            try ServerWiring.makeHandler(settings: settings, context: context)
        }
    }
}
