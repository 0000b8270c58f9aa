import JSONCore

/// `vmctl gen swift`'s view-model proxies: a typed output enum and a proxy per type.
extension SwiftEmitter {
    func outputEnum(_ viewModel: GenModel.ViewModel, into out: inout SourceText) {
        var names = MemberNames(reserved: ["init"])
        let cases = viewModel.outputs.map { names.allocate(Self.member($0.name)) }
        out.line()
        out.line("/// A value of one of " + SourceText.oneLine(viewModel.name) + "'s outputs, from its subscription.")
        out.line("public enum " + viewModel.className + "Output: Sendable {")
        out.indented { out in
            for (output, name) in zip(viewModel.outputs, cases) {
                if !output.summary.isEmpty { out.line("/// " + SourceText.oneLine(output.summary)) }
                out.line("case " + name + "(" + spell(output.type) + ")")
            }
            out.line()
            out.line("/// The typed value of `event`, or `nil` for an output this file does not know.")
            out.line("public init?(_ event: VMOutputEvent) throws(JSONDecodingError) {")
            out.indented { out in
                out.line("switch event.output {")
                for (output, name) in zip(viewModel.outputs, cases) {
                    out.line("case " + SourceText.quoted(output.name, swift: true) + ": self = ." + name + "(try " + spell(output.type) + "(json: event.value))")
                }
                out.line("default: return nil")
                out.line("}")
            }
            out.line("}")
        }
        out.line("}")
    }

    func proxy(_ viewModel: GenModel.ViewModel, into out: inout SourceText) {
        var names = MemberNames(reserved: ["client", "instance", "create", "subscribe", "destroy", "typeName", "init"])
        let sends = viewModel.inputs.map { names.allocate("send" + GenNames.typeIdentifier($0.name)) }
        let executes = viewModel.actions.map { names.allocate("execute" + GenNames.typeIdentifier($0.name)) }
        let gets = viewModel.outputs.map { names.allocate("get" + GenNames.typeIdentifier($0.name)) }
        let wire = SourceText.quoted(viewModel.name, swift: true)
        out.line()
        out.line("/// " + SourceText.oneLine(viewModel.name) + (viewModel.summary.isEmpty ? "" : ": " + SourceText.oneLine(viewModel.summary)))
        out.line("public struct " + viewModel.className + ": Sendable {")
        out.indented { out in
            out.line("public static let typeName = " + wire)
            out.line("public let client: VMClient")
            out.line("public let instance: String")
            out.line()
            out.line("/// An instance that exists already.")
            out.line("public init(client: VMClient, instance: String) {")
            out.indented { out in
                out.line("self.client = client")
                out.line("self.instance = instance")
            }
            out.line("}")
            out.line()
            out.line("/// `vm.create`: a new instance.")
            let args = viewModel.args.map { spell($0) + (viewModel.argsRequired ? "" : "? = nil") }
            let argsParameter = args.map { "args: " + $0 + ", " } ?? ""
            out.line("public static func create(on client: VMClient, " + argsParameter
                     + "id: String? = nil, scope: InstanceScope = .daemon) async throws -> " + viewModel.className + " {")
            out.indented { out in
                let argsValue = args == nil ? "nil" : (viewModel.argsRequired ? "args.jsonValue.objectValue" : "args?.jsonValue.objectValue")
                out.line("let created = try await client.create(type: typeName, id: id, args: " + argsValue + ", scope: scope)")
                out.line("return " + viewModel.className + "(client: client, instance: created.instance)")
            }
            out.line("}")
            for (input, method) in zip(viewModel.inputs, sends) {
                out.line()
                out.line("/// `vm.send` to `" + SourceText.oneLine(input.name) + "`" + (input.summary.isEmpty ? "." : ": " + SourceText.oneLine(input.summary)))
                if input.type == .null {
                    out.line("public func " + method + "() async throws {")
                    out.indented { $0.line("try await client.send(instance: instance, input: " + SourceText.quoted(input.name, swift: true) + ", value: nil)") }
                } else {
                    let type = spell(input.type)
                    let optional = input.hasDefault && !type.hasSuffix("?") && type != "JSONValue"
                    out.line("public func " + method + "(_ value: " + type + (optional ? "? = nil" : (input.hasDefault && type.hasSuffix("?") ? " = nil" : "")) + ") async throws {")
                    let encoded = optional || (input.hasDefault && type.hasSuffix("?")) ? "value.map(\\.jsonValue)" : "value.jsonValue"
                    out.indented { $0.line("try await client.send(instance: instance, input: " + SourceText.quoted(input.name, swift: true) + ", value: " + encoded + ")") }
                }
                out.line("}")
            }
            for (action, method) in zip(viewModel.actions, executes) {
                out.line()
                out.line("/// `vm.execute` of `" + SourceText.oneLine(action.name) + "`" + (action.summary.isEmpty ? "." : ": " + SourceText.oneLine(action.summary)))
                let result = action.output == .null ? "Void" : spell(action.output)
                let parameter: String
                let encoded: String
                if action.input == .null {
                    (parameter, encoded) = ("", "nil")
                } else if action.inputOptional {
                    let type = spell(action.input)
                    (parameter, encoded) = type.hasSuffix("?") || type == "JSONValue"
                        ? ("_ value: " + type + " = nil, ", "value.jsonValue")
                        : ("_ value: " + type + "? = nil, ", "value.map(\\.jsonValue)")
                } else {
                    (parameter, encoded) = ("_ value: " + spell(action.input) + ", ", "value.jsonValue")
                }
                out.line("@discardableResult")
                out.line("public func " + method + "(" + parameter + "timeoutMs: Int? = nil) async throws -> " + result + " {")
                out.indented { out in
                    let call = "try await client.execute(instance: instance, action: " + SourceText.quoted(action.name, swift: true)
                        + ", value: " + encoded + ", timeoutMs: timeoutMs)"
                    if action.output == .null {
                        out.line("_ = " + call)
                    } else {
                        out.line("return try " + result + "(json: " + call + ")")
                    }
                }
                out.line("}")
            }
            for (output, method) in zip(viewModel.outputs, gets) where output.isState {
                out.line()
                out.line("/// `vm.get` of `" + SourceText.oneLine(output.name) + "`" + (output.summary.isEmpty ? "." : ": " + SourceText.oneLine(output.summary)))
                out.line("public func " + method + "() async throws -> " + spell(output.type) + " {")
                out.indented { $0.line("try " + spell(output.type) + "(json: try await client.get(instance: instance, output: " + SourceText.quoted(output.name, swift: true) + "))") }
                out.line("}")
            }
            out.line()
            out.line("/// `vm.subscribe`; read its outputs with `" + viewModel.className + "Output(event)`.")
            out.line("public func subscribe(_ options: SubscribeOptions = SubscribeOptions()) async throws -> VMSubscription {")
            out.indented { $0.line("try await client.subscribe(instance: instance, options: options)") }
            out.line("}")
            out.line()
            out.line("/// `vm.destroy`.")
            out.line("public func destroy() async throws {")
            out.indented { $0.line("try await client.destroy(instance)") }
            out.line("}")
        }
        out.line("}")
    }
}
