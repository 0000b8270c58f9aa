import JSONCore
import ReactiveCore

/// One registered view-model type: its description, the compiled schemas every incoming
/// value is checked against, and the factory that builds an instance. Immutable.
final class RegisteredType: Sendable {
    let description: ViewModelTypeDescription
    /// What generated ids start with: the lower-cased type name and a dash (`"counter-"`),
    /// lower-cased once here rather than on every `vm.create`.
    let idPrefix: String
    let argsSchema: JSONSchema
    /// Per input: its place in ``InstanceRuntime/inputs``, its compiled schema and the JSON an
    /// omitted value means. Kept per type, so an instance holds no dictionary of its own.
    let inputs: [String: Slot]
    /// Per action: its place in ``InstanceRuntime/actions``, its compiled input schema.
    let actions: [String: Slot]
    /// Per output: its place in ``InstanceRuntime/outputs``.
    let outputs: [String: Int]
    let build: @Sendable (InstanceSeed) throws(JSONDecodingError) -> InstanceRuntime

    /// Where a port sits among its instance's ports of its kind, and how values are checked.
    struct Slot: Sendable {
        let index: Int
        let rule: ValueRule
    }

    init(
        description: ViewModelTypeDescription,
        argsSchema: JSONSchema,
        inputs: [String: Slot],
        actions: [String: Slot],
        build: @escaping @Sendable (InstanceSeed) throws(JSONDecodingError) -> InstanceRuntime
    ) {
        self.description = description
        self.idPrefix = description.name.lowercased() + "-"
        self.argsSchema = argsSchema
        self.inputs = inputs
        self.actions = actions
        var outputs: [String: Int] = [:]
        for (index, output) in description.outputs.enumerated() { outputs[output.name] = index }
        self.outputs = outputs
        self.build = build
    }
}

/// How an incoming value is checked: its schema, and what an omitted value means
/// (the schema's `default`, else `null`, as PROTOCOL.md section 5 says).
struct ValueRule: Sendable {
    let schema: JSONSchema
    let omitted: JSONValue
    /// The schema as a plain type test when that is all it checks (most inputs: `Int`,
    /// `String`, `Bool`, `Void`): valid values skip the schema interpreter.
    let typeCheck: JSONSchemaTypeCheck?

    init(schema document: JSONValue) throws(JSONSchemaError) {
        schema = try JSONSchema(document)
        omitted = document["default"] ?? .null
        typeCheck = JSONSchemaTypeCheck(schema)
    }

    /// `value` (or what its omission means) if it satisfies the schema, else the first
    /// violation as path, expected, got.
    func check(_ value: JSONValue?) -> Result<JSONValue, JSONSchemaViolation> {
        let value = value ?? omitted
        // A value the type test rejects still goes to the interpreter, which words the violation.
        if let typeCheck, typeCheck.admits(value) { return .success(value) }
        return Self.check(value, against: schema)
    }

    static func check(_ value: JSONValue, against schema: JSONSchema) -> Result<JSONValue, JSONSchemaViolation> {
        do throws(JSONSchemaViolation) {
            try schema.validate(value)
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// What the factory needs to build one instance.
struct InstanceSeed {
    let id: String
    let args: JSONValue
    let scheduler: any SerialScheduler
    let bag: DisposeBag
    let children: any ChildOpening
    /// Where the event outputs hold what `init` emits until the creator releases it.
    let heldEvents: HeldEvents
    /// Whether the runtime keeps the typed `Ports` value (for a ``ChildViewModel`` handle).
    let keepsPorts: Bool
}

/// A built instance: the view model, its `Ports` value (for typed child handles), its
/// lifetime bag and its ports by kind, each array in declaration order (``RegisteredType``
/// maps names to indices).
final class InstanceRuntime {
    let viewModel: Any
    /// Kept only for instances a typed ``ChildViewModel`` handle drives.
    let ports: Any?
    let bag: DisposeBag
    /// What its event outputs emitted during `init`, until the host delivers it (`nil` when
    /// `init` emitted no event).
    let heldEvents: HeldEvents?
    let inputs: [any InputPortBox]
    let outputs: [any OutputPortBox]
    let actions: [any ActionPortBox]

    init(viewModel: Any, typedPorts: Any?, bag: DisposeBag, heldEvents: HeldEvents?, ports: [any PortBox]) {
        self.viewModel = viewModel
        self.heldEvents = heldEvents
        self.ports = typedPorts
        self.bag = bag
        // Sized once (each kind counted first): growing three arrays by appending cost a
        // reallocation per port or two on every create.
        var counts = (inputs: 0, outputs: 0, actions: 0)
        for port in ports {
            switch port.typed {
            case .input: counts.inputs += 1
            case .output: counts.outputs += 1
            case .action: counts.actions += 1
            }
        }
        var inputs: [any InputPortBox] = []
        var outputs: [any OutputPortBox] = []
        var actions: [any ActionPortBox] = []
        inputs.reserveCapacity(counts.inputs)
        outputs.reserveCapacity(counts.outputs)
        actions.reserveCapacity(counts.actions)
        for port in ports {
            switch port.typed {
            case .input(let input): inputs.append(input)
            case .output(let output): outputs.append(output)
            case .action(let action): actions.append(action)
            }
        }
        self.inputs = inputs
        self.outputs = outputs
        self.actions = actions
    }

    /// Ends the instance: observers are dropped first (nothing more reaches them), then the
    /// bag releases every binding, then ports let go of their actions.
    func tearDown() {
        for output in outputs { output.closeJSON() }
        bag.dispose()
        for input in inputs { input.detach() }
        for output in outputs { output.detach() }
        for action in actions { action.detach() }
    }
}
