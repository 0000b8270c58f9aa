import JSONCore
import VMClient

/// `create`, `list` and `destroy`: the lives of instances.
enum InstanceCommands {
    static func create(_ run: Invocation) throws(CommandFailure) {
        var params: JSONObject = ["type": .string(run.argument("TYPE"))]
        if let id = run.parsed.value("id") { params["id"] = .string(id) }
        let pairs = run.parsed.values("arg")
        if !pairs.isEmpty {
            var args = JSONObject()
            for pair in pairs {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw .usage("invalid value '\(pair)' for --arg: expected KEY=VALUE", run.parsed)
                }
                let key = String(pair[..<equals])
                let word = String(pair[pair.index(after: equals)...])
                args[key] = try run.value(word, for: .argument(type: run.argument("TYPE"), key: key))
            }
            params["args"] = .object(args)
        }
        if let scope = run.parsed.value("scope") { params["scope"] = .string(scope) }
        let result = try run.call("vm.create", .object(params))
        run.print(result) { console in console.line(result["instance"]?.stringValue ?? result.encodedString()) }
    }

    static func list(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call("vm.list")
        let instances: [VMInstanceSummary]
        do {
            instances = try (result["instances"]?.arrayValue ?? []).map { (value) throws(JSONDecodingError) in
                try VMInstanceSummary(json: value)
            }
        } catch {
            throw CommandFailure(status: .daemonError, message: "vm.list answered an unexpected shape: \(error)")
        }
        run.print(result) { console in
            guard !instances.isEmpty else {
                console.line("No instances. Create one with 'vmctl create TYPE' ('vmctl types' lists them).")
                return
            }
            var table = TextTable("INSTANCE", "TYPE", "SCOPE", "SUBSCRIBERS", "PARENT")
            for instance in instances {
                table.add(instance.instance, instance.type, instance.scope, String(instance.subscribers),
                          instance.parent ?? "")
            }
            table.render(into: console)
        }
    }

    static func destroy(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call("vm.destroy", ["instance": .string(run.argument("INSTANCE"))])
        run.print(result) { _ in }  // quiet on success, like rm
    }
}
