import JSONCore

/// Everything a client needs to drive a view-model type: the wire's `TypeDescription`
/// (`vm.types`). Derived from the type's declaration; ``jsonValue`` is exactly what the
/// protocol sends.
public struct ViewModelTypeDescription: Sendable, Equatable {
    /// An input: `{name, summary, schema}`.
    public struct InputDescription: Sendable, Equatable {
        public let name: String
        public let summary: String
        /// Schema of the value `vm.send` takes; its `default` (if any) is what an omitted
        /// value means.
        public let schema: JSONValue
    }

    /// An output: `{name, summary, kind, schema}`.
    public struct OutputDescription: Sendable, Equatable {
        public let name: String
        public let summary: String
        public let kind: OutputKind
        public let schema: JSONValue
    }

    /// An action: `{name, summary, input, output}`.
    public struct ActionDescription: Sendable, Equatable {
        public let name: String
        public let summary: String
        /// Schema of `vm.execute`'s value.
        public let input: JSONValue
        /// Schema of `vm.execute`'s result value.
        public let output: JSONValue
    }

    /// The type's wire name (`"Counter"`).
    public let name: String
    public let summary: String
    /// Schema of `vm.create`'s `args`.
    public let args: JSONValue
    /// In declaration order, like the other lists.
    public let inputs: [InputDescription]
    public let outputs: [OutputDescription]
    public let actions: [ActionDescription]

    /// The names of the outputs of `kind` (all outputs when `nil`), in declaration order.
    public func outputNames(_ kind: OutputKind? = nil) -> [String] {
        outputs.filter { kind == nil || $0.kind == kind }.map(\.name)
    }

    /// The wire form: `{name, summary, args, inputs, outputs, actions}`.
    public var jsonValue: JSONValue {
        [
            "name": .string(name),
            "summary": .string(summary),
            "args": args,
            "inputs": .array(inputs.map { ["name": .string($0.name), "summary": .string($0.summary), "schema": $0.schema] }),
            "outputs": .array(outputs.map {
                ["name": .string($0.name), "summary": .string($0.summary), "kind": .string($0.kind.rawValue), "schema": $0.schema]
            }),
            "actions": .array(actions.map {
                ["name": .string($0.name), "summary": .string($0.summary), "input": $0.input, "output": $0.output]
            }),
        ]
    }
}
