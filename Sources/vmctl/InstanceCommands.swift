import JSONCore
import VMProtocol
import VMClient

/// `create`, `list` and `destroy`: the lives of instances.
enum InstanceCommands {
    static func create(_ run: Invocation) throws(CommandFailure) {
        var params = VMCreateMethod.Params(type: run.argument("TYPE"), id: run.parsed.value("id"))
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
            params.args = .object(args)
        }
        if let scope = run.parsed.value("scope") {
            guard let parsed = InstanceScope(rawValue: scope) else {
                throw .usage("invalid value '\(scope)' for --scope: expected daemon or connection", run.parsed)
            }
            params.scope = parsed
        }
        params.durable = run.parsed.flag("durable")
        params.record = run.parsed.flag("record")
        let result = try run.call(VMCreateMethod.self, params.jsonValue)
        run.print(result) { console in console.line(result["instance"]?.stringValue ?? result.encodedString()) }
    }

    static func list(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call(VMListMethod.self)
        let instances: [VMListMethod.Summary]
        do {
            instances = try VMListMethod.decodeResult(result)
        } catch {
            throw CommandFailure(status: .daemonError, message: "\(VMListMethod.name) answered an unexpected shape: \(error)")
        }
        run.print(result) { console in
            guard !instances.isEmpty else {
                console.line("No instances. Create one with 'vmctl create TYPE' ('vmctl types' lists them).")
                return
            }
            var table = TextTable("INSTANCE", "TYPE", "SCOPE", "SUBSCRIBERS", "PARENT")
            for instance in instances {
                table.add(instance.instance, instance.type, instance.scope.rawValue, String(instance.subscribers),
                          instance.parent ?? "")
            }
            table.render(into: console)
        }
    }

    static func destroy(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call(VMDestroyMethod.self, VMDestroyMethod.Params(instance: run.argument("INSTANCE")).jsonValue)
        run.print(result) { _ in }  // quiet on success, like rm
    }
}
