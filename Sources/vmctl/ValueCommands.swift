import JSONCore
import VMClient

/// `send`, `exec` and `get`: values in and out of one instance.
enum ValueCommands {
    static func send(_ run: Invocation) throws(CommandFailure) {
        var params: JSONObject = ["instance": .string(run.argument("INSTANCE")), "input": .string(run.argument("INPUT"))]
        if let value = run.parsed.positional("VALUE") {
            params["value"] = try run.value(value, for: .input(instance: run.argument("INSTANCE"), name: run.argument("INPUT")))
        }
        let result = try run.call("vm.send", .object(params))
        run.print(result) { _ in }  // quiet on success: the value was processed
    }

    static func exec(_ run: Invocation) throws(CommandFailure) {
        var params: JSONObject = ["instance": .string(run.argument("INSTANCE")), "action": .string(run.argument("ACTION"))]
        if let value = run.parsed.positional("VALUE") {
            params["value"] = try run.value(value, for: .action(instance: run.argument("INSTANCE"), name: run.argument("ACTION")))
        }
        if let timeout = try run.integer("timeout-ms") {
            guard timeout >= 1 else { throw .usage("invalid value '\(timeout)' for --timeout-ms: expected at least 1", run.parsed) }
            params["timeoutMs"] = .integer(Int64(timeout))
        }
        let result = try run.call("vm.execute", .object(params))
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }

    static func get(_ run: Invocation) throws(CommandFailure) {
        let params: JSONValue = ["instance": .string(run.argument("INSTANCE")), "output": .string(run.argument("OUTPUT"))]
        let result = try run.call("vm.get", params)
        run.print(result) { console in console.line(ValueText.plain(result["value"] ?? .null)) }
    }
}
