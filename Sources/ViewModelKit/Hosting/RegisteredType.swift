import JSONCore
import ReactiveCore

/// One registered view-model type: its description, the compiled schemas every incoming
/// value is checked against, and the factory that builds an instance. Immutable.
final class RegisteredType: Sendable {
    let description: ViewModelTypeDescription
    let argsSchema: JSONSchema
    /// Per input: the compiled schema and the JSON an omitted value means.
    let inputs: [String: ValueRule]
    /// Per action: the compiled input schema and the JSON an omitted value means.
    let actions: [String: ValueRule]
    let build: @Sendable (InstanceSeed) throws(JSONDecodingError) -> InstanceRuntime

    init(
        description: ViewModelTypeDescription,
        argsSchema: JSONSchema,
        inputs: [String: ValueRule],
        actions: [String: ValueRule],
        build: @escaping @Sendable (InstanceSeed) throws(JSONDecodingError) -> InstanceRuntime
    ) {
        self.description = description
        self.argsSchema = argsSchema
        self.inputs = inputs
        self.actions = actions
        self.build = build
    }
}

/// How an incoming value is checked: its schema, and what an omitted value means
/// (the schema's `default`, else `null`, as PROTOCOL.md section 5 says).
struct ValueRule: Sendable {
    let schema: JSONSchema
    let omitted: JSONValue

    init(schema document: JSONValue) throws(JSONSchemaError) {
        schema = try JSONSchema(document)
        omitted = document["default"] ?? .null
    }

    /// `value` (or what its omission means) if it satisfies the schema, else the first
    /// violation as path, expected, got.
    func check(_ value: JSONValue?) -> Result<JSONValue, JSONSchemaViolation> {
        Self.check(value ?? omitted, against: schema)
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
    let openChild: (_ type: String, _ args: JSONValue) throws(ViewModelError) -> String
}

/// A built instance: the view model, its lifetime bag and its ports by name.
final class InstanceRuntime {
    let viewModel: Any
    let bag: DisposeBag
    let inputs: [String: any InputPortBox]
    let outputs: [String: any OutputPortBox]
    let actions: [String: any ActionPortBox]
    let ports: [any PortBox]

    init(viewModel: Any, bag: DisposeBag, ports found: [PortReflection.Found]) {
        self.viewModel = viewModel
        self.bag = bag
        var inputs: [String: any InputPortBox] = [:]
        var outputs: [String: any OutputPortBox] = [:]
        var actions: [String: any ActionPortBox] = [:]
        for entry in found {
            if let input = entry.port as? any InputPortBox { inputs[entry.name] = input }
            if let output = entry.port as? any OutputPortBox { outputs[entry.name] = output }
            if let action = entry.port as? any ActionPortBox { actions[entry.name] = action }
        }
        self.inputs = inputs
        self.outputs = outputs
        self.actions = actions
        self.ports = found.map(\.port)
    }

    /// Ends the instance: observers are dropped first (nothing more reaches them), then the
    /// bag releases every binding, then ports let go of their actions.
    func tearDown() {
        for output in outputs.values { output.closeJSON() }
        bag.dispose()
        for port in ports { port.detach() }
    }
}
