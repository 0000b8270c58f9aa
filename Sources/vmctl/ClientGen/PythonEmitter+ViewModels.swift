import JSONCore

/// `vmctl gen python`'s view-model classes: a typed subscription and a sync and an asyncio
/// wrapper per type.
extension PythonEmitter {
    /// The method names of one view model's class: `send_<input>`, `execute_<action>`,
    /// `get_<output>`, escaped and unique.
    struct Methods {
        var sends: [String] = []
        var executes: [String] = []
        var gets: [String] = []
        var outputClasses: [String] = []

        init(_ viewModel: GenModel.ViewModel) {
            var names = MemberNames(reserved: ["client", "instance", "create", "subscribe", "destroy", "type_name", "typed"])
            sends = viewModel.inputs.map { names.allocate("send_" + GenNames.memberIdentifier($0.name)) }
            executes = viewModel.actions.map { names.allocate("execute_" + GenNames.memberIdentifier($0.name)) }
            gets = viewModel.outputs.map { names.allocate("get_" + GenNames.memberIdentifier($0.name)) }
            var classes = MemberNames(reserved: PythonEmitter.keywords.union(["raw", "next", "take", "typed", "timeout"]))
            outputClasses = viewModel.outputs.map { classes.allocate(GenNames.typeIdentifier($0.name)) }
        }
    }

    func subscription(_ viewModel: GenModel.ViewModel, async: Bool, into out: inout SourceText) {
        let prefix = async ? "Async" : ""
        let name = prefix + viewModel.className + "Subscription"
        let union = viewModel.className + "Output"
        let methods = Methods(viewModel)
        if !async {
            // The output classes and their union are declared once, in the sync subscription.
            out.line()
            out.line()
            out.line("class " + name + ":")
            out.indented { out in
                out.line("\"\"\"The outputs of a " + docstring(viewModel.name) + ", typed: iterate it, or `next()` / `take(n)`.\"\"\"")
                for (output, className) in zip(viewModel.outputs, methods.outputClasses) {
                    out.line()
                    out.line("@dataclass(frozen=True)")
                    out.line("class " + className + ":")
                    out.indented { out in
                        out.line("\"\"\"`" + docstring(output.name) + "`" + (output.summary.isEmpty ? "" : ": " + docstring(output.summary)) + "\"\"\"")
                        out.line("output: Literal[" + SourceText.quoted(output.name) + "]")
                        out.line("value: " + spell(output.type))
                        out.line("seq: int")
                        out.line("replay: bool")
                        out.line("raw: Output")
                    }
                }
                out.line()
                out.line("def __init__(self, subscription: Subscription) -> None:")
                out.indented { $0.line("self.raw = subscription") }
                subscriptionReading(viewModel, methods: methods, union: union, async: false, into: &out)
            }
            if viewModel.outputs.isEmpty {
                out.line()
                out.line()
                out.line(union + " = Output")
            } else {
                out.line()
                out.line()
                let members = methods.outputClasses.map { name + "." + $0 }
                out.line(union + " = " + (members.count == 1 ? members[0] : "Union[" + members.joined(separator: ", ") + "]"))
            }
            return
        }
        out.line()
        out.line()
        out.line("class " + name + ":")
        out.indented { out in
            out.line("\"\"\"The outputs of a " + docstring(viewModel.name) + ", typed: `async for`, or `await next()` / `take(n)`.\"\"\"")
            out.line()
            out.line("def __init__(self, subscription: AsyncSubscription) -> None:")
            out.indented { $0.line("self.raw = subscription") }
            subscriptionReading(viewModel, methods: methods, union: union, async: true, into: &out)
        }
    }

    private func subscriptionReading(_ viewModel: GenModel.ViewModel, methods: Methods, union: String, async: Bool,
                                     into out: inout SourceText) {
        let (def, awaiting) = async ? ("async def", "await ") : ("def", "")
        let syncName = viewModel.className + "Subscription"
        out.line()
        out.line("@staticmethod")
        out.line("def typed(output: Output) -> " + union + ":")
        out.indented { out in
            out.line("\"\"\"One untyped output as its typed class.\"\"\"")
            if viewModel.outputs.isEmpty {
                out.line("return output")
                return
            }
            for (output, className) in zip(viewModel.outputs, methods.outputClasses) {
                out.line("if output.output == " + SourceText.quoted(output.name) + ":")
                out.indented { out in
                    out.line("return " + syncName + "." + className + "(" + SourceText.quoted(output.name) + ", cast("
                             + SourceText.quoted(spell(output.type)) + ", output.value), output.seq, output.replay, output)")
                }
            }
            out.line("raise ValueError(\"" + docstring(viewModel.name) + " has no output %r\" % output.output)")
        }
        out.line()
        out.line(def + " next(self, timeout: Any = MISSING) -> " + union + ":")
        out.indented { $0.line("return self.typed(" + awaiting + "self.raw.next(timeout))") }
        out.line()
        out.line(def + " take(self, count: int, timeout: Any = MISSING) -> List[" + union + "]:")
        out.indented { $0.line("return [self.typed(output) for output in " + awaiting + "self.raw.take(count, timeout)]") }
        out.line()
        if async {
            out.line("def __aiter__(self) -> Async" + syncName + ":")
            out.indented { $0.line("return self") }
            out.line()
            out.line("async def __anext__(self) -> " + union + ":")
            out.indented { $0.line("return self.typed(await self.raw.__anext__())") }
        } else {
            out.line("def __iter__(self) -> Iterator[" + union + "]:")
            out.indented { $0.line("return self") }
            out.line()
            out.line("def __next__(self) -> " + union + ":")
            out.indented { $0.line("return self.typed(next(self.raw))") }
        }
    }

    func wrapper(_ viewModel: GenModel.ViewModel, async: Bool, into out: inout SourceText) {
        let prefix = async ? "Async" : ""
        let name = prefix + viewModel.className
        let client = async ? "AsyncClient" : "Client"
        let (def, awaiting) = async ? ("async def", "await ") : ("def", "")
        let methods = Methods(viewModel)
        let wire = SourceText.quoted(viewModel.name)
        out.line()
        out.line()
        out.line("class " + name + ":")
        out.indented { out in
            let summary = viewModel.summary.isEmpty ? "" : ": " + docstring(viewModel.summary)
            out.line("\"\"\"A " + docstring(viewModel.name) + " instance" + summary + "\"\"\"")
            out.line()
            out.line("type_name = " + wire)
            out.line()
            out.line("def __init__(self, client: " + client + ", instance: str) -> None:")
            out.indented { out in
                out.line("self.client = client")
                out.line("self.instance = instance")
            }
            out.line()
            out.line("@classmethod")
            let args = viewModel.args.map { spell($0) }
            let argsParameter = switch (args, viewModel.argsRequired) {
            case (let args?, true): "args: " + args + ", "
            case (let args?, false): "args: Optional[" + args + "] = None, "
            case (nil, _): ""
            }
            out.line(def + " create(cls, client: " + client + ", *, " + argsParameter
                     + "id: Optional[str] = None, scope: Optional[Literal[\"daemon\", \"connection\"]] = None) -> " + name + ":")
            out.indented { out in
                out.line("\"\"\"`vm.create`: a new instance.\"\"\"")
                out.line("created = " + awaiting + "client.create(" + wire + ", id=id, args=" + (args == nil ? "None" : "args")
                         + ", scope=scope)")
                out.line("return cls(client, created.instance)")
            }
            for (input, method) in zip(viewModel.inputs, methods.sends) {
                out.line()
                let parameter = input.type == .null ? "value: None = None" : "value: " + spell(input.type) + (input.hasDefault ? " = MISSING" : "")
                out.line(def + " " + method + "(self, " + parameter + ", *, notify: bool = False) -> None:")
                out.indented { out in
                    out.line("\"\"\"`vm.send` to `" + docstring(input.name) + "`" + summarySuffix(input.summary) + "\"\"\"")
                    out.line(awaiting + "self.client.send(self.instance, " + SourceText.quoted(input.name) + ", value, notify=notify)")
                }
            }
            for (action, method) in zip(viewModel.actions, methods.executes) {
                out.line()
                let input = action.input == .null ? "value: None = None"
                    : "value: " + spell(action.input) + (action.inputOptional ? " = MISSING" : "")
                out.line(def + " " + method + "(self, " + input + ", *, timeout_ms: Optional[int] = None) -> " + spell(action.output) + ":")
                out.indented { out in
                    out.line("\"\"\"`vm.execute` of `" + docstring(action.name) + "`" + summarySuffix(action.summary) + "\"\"\"")
                    out.line("return cast(" + SourceText.quoted(spell(action.output)) + ", " + awaiting + "self.client.execute(self.instance, "
                             + SourceText.quoted(action.name) + ", value, timeout_ms=timeout_ms))")
                }
            }
            for (output, method) in zip(viewModel.outputs, methods.gets) where output.isState {
                out.line()
                out.line(def + " " + method + "(self) -> " + spell(output.type) + ":")
                out.indented { out in
                    out.line("\"\"\"`vm.get` of `" + docstring(output.name) + "`" + summarySuffix(output.summary) + "\"\"\"")
                    out.line("return cast(" + SourceText.quoted(spell(output.type)) + ", " + awaiting + "self.client.get(self.instance, "
                             + SourceText.quoted(output.name) + "))")
                }
            }
            let outputNames = viewModel.outputs.map { SourceText.quoted($0.name) }
            let outputType = outputNames.isEmpty ? "str" : "Literal[" + outputNames.joined(separator: ", ") + "]"
            out.line()
            out.line(def + " subscribe(self, outputs: Optional[List[" + outputType + "]] = None, *, replay: Optional[bool] = None, "
                     + "patches: Optional[bool] = None, timeout: Optional[float] = None) -> " + name + "Subscription:")
            out.indented { out in
                out.line("\"\"\"`vm.subscribe` to `outputs` (every output this module knows when None).\"\"\"")
                let known = outputNames.isEmpty ? "None" : "[" + outputNames.joined(separator: ", ") + "]"
                out.line("chosen: Optional[List[str]] = list(outputs) if outputs is not None else " + known)
                out.line("return " + name + "Subscription(" + awaiting + "self.client.subscribe(self.instance, chosen, replay=replay, "
                         + "patches=patches, timeout=timeout))")
            }
            out.line()
            out.line(def + " destroy(self) -> None:")
            out.indented { out in
                out.line("\"\"\"`vm.destroy`.\"\"\"")
                out.line(awaiting + "self.client.destroy(self.instance)")
            }
        }
    }

    private func summarySuffix(_ summary: String) -> String {
        summary.isEmpty ? "." : ": " + docstring(summary)
    }

    /// `text` safe inside a one-line docstring.
    func docstring(_ text: String) -> String {
        let line = SourceText.oneLine(text)
        return line.hasSuffix("\"") ? line + " " : line
    }
}
