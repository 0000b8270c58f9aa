import JSONCore
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
        let result = try run.call(VMExecuteMethod.self, params.jsonValue)
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }

    static func get(_ run: Invocation) throws(CommandFailure) {
        let params = VMGetMethod.Params(instance: run.argument("INSTANCE"), output: run.argument("OUTPUT"))
        let result = try run.call(VMGetMethod.self, params.jsonValue)
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }
}
