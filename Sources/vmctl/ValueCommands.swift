import JSONCore
import Posix
import VMProtocol
import VMClient

/// `send`, `exec` and `get`: values in and out of one instance.
enum ValueCommands {
    static func send(_ run: Invocation) throws(CommandFailure) {
        var params = VMSendMethod.Params(instance: run.argument("INSTANCE"), input: run.argument("INPUT"))
        if let value = run.parsed.positional("VALUE") {
            params.value = try run.value(value, for: .input(instance: params.instance, name: params.input))
        }
        let result = try run.call(VMSendMethod.self, params.jsonValue)
        run.print(result) { _ in }  // quiet on success: the value was processed
    }

    static func exec(_ run: Invocation) throws(CommandFailure) {
        var params = VMExecuteMethod.Params(instance: run.argument("INSTANCE"), action: run.argument("ACTION"))
        if let value = run.parsed.positional("VALUE") {
            params.value = try run.value(value, for: .action(instance: params.instance, name: params.action))
        }
        if let timeout = try run.integer("timeout-ms") {
            guard timeout >= 1 else { throw .usage("invalid value '\(timeout)' for --timeout-ms: expected at least 1", run.parsed) }
            params.timeoutMs = Int64(timeout)
        }
        params.resetTimeoutOnProgress = run.parsed.flag("reset-timeout-on-progress")
        let display = ProgressDisplay(style: run.json ? .jsonLines : ProgressDisplay.Style.forStandardError())
        // Ctrl-C cancels the execution in the daemon; its one reply then ends the command.
        let interrupt = try? CaughtSignal(.interrupt)
        let connection = try run.connect()
        let result: JSONValue
        do {
            result = try connection.execute(
                params,
                onProgress: run.parsed.flag("no-progress") ? nil : { display.show($0) },
                cancelWhen: { interrupt?.hasArrived ?? false })
        } catch {
            display.finish()
            if interrupt?.hasArrived == true, case .remote(let remote) = error, remote.name == "requestCancelled" {
                throw .interrupted
            }
            throw .client(error, at: run.location)
        }
        display.finish()
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }

    static func get(_ run: Invocation) throws(CommandFailure) {
        let params = VMGetMethod.Params(instance: run.argument("INSTANCE"), output: run.argument("OUTPUT"))
        let result = try run.call(VMGetMethod.self, params.jsonValue)
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }
}
