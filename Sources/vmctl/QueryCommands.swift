import JSONCore
import VMProtocol
import VMClient

/// `info` and `types`: what the daemon is and what it serves.
enum QueryCommands {
    static func info(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call(DaemonInfoMethod.self)
        let info: DaemonInfoMethod.Result
        do {
            info = try DaemonInfoMethod.Result(json: result)
        } catch {
            throw CommandFailure(status: .daemonError, message: "\(DaemonInfoMethod.name) answered an unexpected shape: \(error)")
        }
        run.print(result) { console in
            var table = TextTable("", "")
            table.add("version", info.version)
            table.add("protocol", String(info.protocolLevel))
            table.add("pid", String(info.pid))
            table.add("uptime", formatUptime(info.uptimeSeconds))
            table.add("boot id", info.bootId)
            table.add("socket", info.socket)
            table.add("instances", String(info.instances))
            table.add("connections", String(info.connections))
            table.add("slow clients", info.slowClient.rawValue)
            table.render(into: console)
            console.line("limits")
            var limits = TextTable("", "")
            for (name, value) in info.limits.jsonValue.objectValue ?? [:] { limits.add(name, ValueText.plain(value)) }
            limits.render(into: console, indent: "  ")
        }
    }

    static func types(_ run: Invocation) throws(CommandFailure) {
        let name = run.parsed.positional("TYPE")
        let result = try run.call(VMTypesMethod.self, VMTypesMethod.Params(type: name).jsonValue)
        let types: [VMTypesMethod.TypeDescription]
        do {
            types = try VMTypesMethod.decodeResult(result)
        } catch {
            throw CommandFailure(status: .daemonError, message: "\(VMTypesMethod.name) answered an unexpected shape: \(error)")
        }
        run.print(result) { console in
            if name == nil {
                var table = TextTable("TYPE", "INPUTS", "OUTPUTS", "ACTIONS", "SUMMARY")
                for type in types {
                    table.add(type.name, String(type.inputs.count), String(type.outputs.count),
                              String(type.actions.count), type.summary)
                }
                table.render(into: console)
            } else {
                for type in types { describe(type, into: console) }
            }
        }
    }

    private static func describe(_ type: VMTypesMethod.TypeDescription, into console: Console) {
        console.line(console.styled(type.name, Style.bold) + (type.summary.isEmpty ? "" : " — " + type.summary))
        let arguments = type.args["properties"]?.objectValue ?? JSONObject()
        section("Arguments", "vmctl create \(type.name) --arg KEY=VALUE", console)
        if arguments.isEmpty {
            console.line("  (none)")
        } else {
            var table = TextTable("", "")
            for (key, schema) in arguments { table.add(key, ValueText.schemaSummary(schema)) }
            table.render(into: console, indent: "  ")
        }
        section("Inputs", "vmctl send INSTANCE INPUT [VALUE]", console)
        var inputs = TextTable("", "", "")
        for input in type.inputs { inputs.add(input.name, ValueText.schemaSummary(input.schema), input.summary) }
        render(inputs, console)
        section("Outputs", "vmctl get INSTANCE OUTPUT (state), vmctl watch INSTANCE", console)
        var outputs = TextTable("", "", "", "")
        for output in type.outputs {
            outputs.add(output.name, output.kind, ValueText.schemaSummary(output.schema), output.summary)
        }
        render(outputs, console)
        section("Actions", "vmctl exec INSTANCE ACTION [VALUE]", console)
        var actions = TextTable("", "", "")
        for action in type.actions {
            let signature = ValueText.schemaSummary(action.input) + " → " + ValueText.schemaSummary(action.output)
            actions.add(action.name, signature, action.summary)
        }
        render(actions, console)
    }

    private static func section(_ title: String, _ usage: String, _ console: Console) {
        console.line("")
        console.line(console.styled(title, Style.bold) + console.styled("  (\(usage))", Style.dim))
    }

    private static func render(_ table: TextTable, _ console: Console) {
        if table.rows.isEmpty { console.line("  (none)") } else { table.render(into: console, indent: "  ") }
    }

    static func formatUptime(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole < 60 { return String(Double(Int(seconds * 10)) / 10) + " s" }
        let (hours, rest) = whole.quotientAndRemainder(dividingBy: 3600)
        let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
        return hours > 0 ? "\(hours) h \(minutes) min" : "\(minutes) min \(secs) s"
    }
}
