import JSONCore
import ReactiveCore

/// The view-model types a host can create, by name: each with its description (derived from
/// the declaration, without creating an instance) and a factory that builds instances with
/// the services given at registration.
///
/// Build it once at start-up (the catalog does), then hand it to a `ViewModelHost` (the server's).
public struct ViewModelRegistry: Sendable {
    private var entries: [String: RegisteredType] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `type`, whose instances get `services`.
    ///
    /// Fails if the name is taken, if `Ports` has a stored property that is not a port, or if
    /// a published schema is not a valid JSON Schema.
    ///
    /// Inlinable: the factory that builds every instance is formed here, so it is specialized
    /// for `VM` in the module that registers it (no generic metadata looked up per
    /// `vm.create`, measured with `.ci/instructions`).
    @inlinable
    public mutating func register<VM: ViewModel>(_ type: VM.Type, services: VM.Services) throws(ViewModelDefinitionError) {
        try register(type) { layout in
            { seed throws(JSONDecodingError) in try InstanceRuntime.build(VM.self, seed: seed, layout: layout, services: services) }
        }
    }

    /// Registers `type` with the factory `makeFactory` returns for its learned layout.
    @usableFromInline
    mutating func register<VM: ViewModel>(
        _ type: VM.Type,
        makeFactory: (PortLayout) -> RegisteredType.Factory
    ) throws(ViewModelDefinitionError) {
        let name = VM.typeName
        guard !name.isEmpty else { throw ViewModelDefinitionError(type: "\(VM.self)", problem: "its typeName is empty") }
        guard entries[name] == nil else { throw ViewModelDefinitionError(type: name, problem: "a type of that name is already registered") }
        let (layout, found) = try PortLayout.learn(VM.self)
        let description = Self.describe(VM.self, ports: found)

        func compile(_ schema: JSONValue, _ what: String) throws(ViewModelDefinitionError) -> ValueRule {
            if let problem = JSONSchemaBuilder.derivationProblem(in: schema) {
                throw ViewModelDefinitionError(type: name, problem: "the schema of \(what) cannot be derived: \(problem)")
            }
            do throws(JSONSchemaError) {
                return try ValueRule(schema: schema)
            } catch {
                throw ViewModelDefinitionError(type: name, problem: "the schema of \(what) is invalid: \(error)")
            }
        }
        let argsRule = try compile(description.args, "its Arguments")
        // Each port's place among all the ports, in declaration order (an instance keeps them
        // in one list); property names are unique.
        var position: [String: Int] = [:]
        for (index, entry) in found.enumerated() { position[entry.name] = index }
        var inputs: [String: RegisteredType.Slot] = [:]
        for input in description.inputs {
            inputs[input.name] = RegisteredType.Slot(
                index: position[input.name, default: -1], rule: try compile(input.schema, "input '\(input.name)'"))
        }
        var actions: [String: RegisteredType.Slot] = [:]
        for action in description.actions {
            actions[action.name] = RegisteredType.Slot(
                index: position[action.name, default: -1], rule: try compile(action.input, "the input of action '\(action.name)'"))
            _ = try compile(action.output, "the output of action '\(action.name)'")
        }
        var outputs: [String: Int] = [:]
        for output in description.outputs {
            _ = try compile(output.schema, "output '\(output.name)'")
            outputs[output.name] = position[output.name, default: -1]
        }

        entries[name] = RegisteredType(
            description: description, argsSchema: argsRule.schema, inputs: inputs, actions: actions, outputs: outputs,
            ordinal: entries.count, build: makeFactory(layout))
    }

    /// Registers `type`, which needs no services.
    @inlinable
    public mutating func register<VM: ViewModel>(_ type: VM.Type) throws(ViewModelDefinitionError) where VM.Services == Void {
        try register(type, services: ())
    }

    /// Every registered type's description, sorted by name (`vm.types`).
    public var types: [ViewModelTypeDescription] {
        entries.keys.sorted().compactMap { entries[$0]?.description }
    }

    /// The registered names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// The description of the type called `name`, if registered.
    public func type(named name: String) -> ViewModelTypeDescription? {
        entries[name]?.description
    }

    /// The description of `type` computed from its declaration alone, without registering
    /// it or creating anything but a `Ports()` value.
    public static func describe<VM: ViewModel>(_ type: VM.Type) throws(ViewModelDefinitionError) -> ViewModelTypeDescription {
        describe(type, ports: try PortReflection.ports(of: VM.Ports(), typeName: VM.typeName))
    }

    func entry(named name: String) -> RegisteredType? {
        entries[name]
    }

    /// How many types are registered (one more than the largest ``RegisteredType/ordinal``).
    var count: Int { entries.count }

    /// Whether no two types generate ids with the same prefix (``RegisteredType/idPrefix``).
    var idPrefixesAreDistinct: Bool {
        Set(entries.values.map(\.idPrefix)).count == entries.count
    }

    private static func describe<VM: ViewModel>(_ type: VM.Type, ports: [PortReflection.Found]) -> ViewModelTypeDescription {
        var inputs: [ViewModelTypeDescription.InputDescription] = []
        var outputs: [ViewModelTypeDescription.OutputDescription] = []
        var actions: [ViewModelTypeDescription.ActionDescription] = []
        for entry in ports {
            let summary = entry.port.facts.summary
            switch entry.port.facts.role {
            case .input(let schema, _):
                inputs.append(.init(name: entry.name, summary: summary, schema: schema))
            case .output(let kind, let schema):
                outputs.append(.init(name: entry.name, summary: summary, kind: kind, schema: schema))
            case .action(let input, let output):
                actions.append(.init(name: entry.name, summary: summary, input: input, output: output))
            }
        }
        return ViewModelTypeDescription(
            name: VM.typeName, summary: VM.summary, args: VM.Arguments.jsonSchema,
            inputs: inputs, outputs: outputs, actions: actions)
    }
}
