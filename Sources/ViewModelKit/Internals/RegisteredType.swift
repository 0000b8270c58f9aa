import JSONCore
import ReactiveCore

/// One registered view-model type: its description, the compiled schemas every incoming
/// value is checked against, and the factory that builds an instance. Immutable.
@usableFromInline final class RegisteredType: Sendable {
    /// Builds one instance (see ``InstanceRuntime/build(_:seed:layout:services:)``).
    @usableFromInline typealias Factory = @Sendable (InstanceSeed) throws(JSONDecodingError) -> InstanceRuntime

    let description: ViewModelTypeDescription
    /// What generated ids start with: the lower-cased type name and a dash (`"counter-"`),
    /// lower-cased once here rather than on every `vm.create`.
    let idPrefix: String
    /// The bytes of ``idPrefix``, copied into every generated id.
    let idPrefixUTF8: [UInt8]
    /// This type's place in its registry (registration order): what a host's per-type
    /// counters are indexed by.
    let ordinal: Int
    /// Whether instances have event outputs (only those hold what `init` emits).
    let holdsEvents: Bool
    /// The checked arguments an omitted `args` means (`{}`), when `{}` satisfies the schema;
    /// checked once here rather than on every `vm.create` without arguments.
    let omittedArgs: JSONValue?
    let argsSchema: JSONSchema
    /// Per input: its place in ``InstanceRuntime/ports``, its compiled schema and the JSON an
    /// omitted value means. Kept per type, so an instance holds no dictionary of its own.
    let inputs: [String: Slot]
    /// Per action: its place in ``InstanceRuntime/ports``, its compiled input schema.
    let actions: [String: Slot]
    /// Per output: its place in ``InstanceRuntime/ports``.
    let outputs: [String: Int]
    let build: Factory

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
        outputs: [String: Int],
        ordinal: Int,
        build: @escaping Factory
    ) {
        self.description = description
        self.idPrefix = description.name.lowercased() + "-"
        self.idPrefixUTF8 = Array(idPrefix.utf8)
        self.ordinal = ordinal
        self.holdsEvents = description.outputs.contains { $0.kind == .event }
        self.omittedArgs = ValueRule.check([:], against: argsSchema).isSuccess ? [:] : nil
        self.argsSchema = argsSchema
        self.inputs = inputs
        self.actions = actions
        self.outputs = outputs
        self.build = build
    }
}

extension RegisteredType {
    /// ``idPrefix`` followed by `number` in decimal (`"counter-12"`), written in one pass.
    func generatedID(number: Int) -> String {
        var value = UInt(max(number, 0))
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        let prefix = idPrefixUTF8
        let length = prefix.count + digitCount
        return String(unsafeUninitializedCapacity: length) { buffer in
            for (index, byte) in prefix.enumerated() { buffer[index] = byte }
            var index = length
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            return length
        }
    }
}

extension Result {
    /// Whether this is a success.
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
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
@usableFromInline struct InstanceSeed {
    @usableFromInline let id: String
    @usableFromInline let args: JSONValue
    @usableFromInline let scheduler: any SerialScheduler
    @usableFromInline let bag: DisposeBag
    @usableFromInline let children: any ChildOpening
    /// Where the event outputs hold what `init` emits until the creator releases it (`nil`
    /// for a type without event outputs).
    @usableFromInline let heldEvents: HeldEvents?
    /// Whether the runtime keeps the typed `Ports` value (for a ``ChildViewModel`` handle).
    @usableFromInline let keepsPorts: Bool
}

/// A built instance: the view model, its `Ports` value (for typed child handles), its
/// lifetime bag and its ports, in declaration order, by kind (``RegisteredType``'s slots are
/// indices into ``ports``). A value kept inline in its ``ViewModelInstance``: one object
/// per instance fewer.
@usableFromInline struct InstanceRuntime {
    /// The view model, or (for instances a typed ``ChildViewModel`` handle drives) a
    /// ``ViewModelWithPorts`` holding it and its `Ports` value: one existential in every
    /// instance instead of two (a second, almost always `nil`, was 32 bytes of every
    /// ``ViewModelInstance``).
    private let built: Any
    let bag: DisposeBag
    /// What its event outputs emitted during `init`, until the host delivers it (`nil` when
    /// `init` emitted no event).
    let heldEvents: HeldEvents?
    /// The list the ports were collected in, kept as it is: one array per instance (three
    /// arrays by kind, copied out of it, were three more allocations per `vm.create`).
    let ports: [TypedPort]

    /// `built`: the view model, or a ``ViewModelWithPorts`` when its `Ports` value is kept.
    @usableFromInline init(built: Any, bag: DisposeBag, heldEvents: HeldEvents?, ports list: PortList) {
        self.built = built
        self.heldEvents = heldEvents
        self.bag = bag
        ports = list.ports
    }

    /// The view model.
    var viewModel: Any {
        if let kept = built as? ViewModelWithPorts { return kept.viewModel }
        return built
    }

    /// The typed `Ports` value, kept only for instances a typed ``ChildViewModel`` handle
    /// drives.
    var typedPorts: Any? {
        (built as? ViewModelWithPorts)?.ports
    }

    /// Builds an instance of `VM` from `seed`, its ports wired by `layout`: the registry's
    /// factory, specialized for `VM` where ``ViewModelRegistry/register(_:services:)`` is
    /// inlined.
    @inlinable static func build<VM: ViewModel>(
        _ type: VM.Type, seed: InstanceSeed, layout: PortLayout, services: VM.Services
    ) throws(JSONDecodingError) -> InstanceRuntime {
        let args = try VM.Arguments(json: seed.args)
        let context = VM.Context(
            id: seed.id, args: args, services: services, scheduler: seed.scheduler, bag: seed.bag,
            children: seed.children)
        let built = BuiltViewModel<VM>.build(layout: layout, context: context, heldEvents: seed.heldEvents)
        return InstanceRuntime(
            built: seed.keepsPorts ? ViewModelWithPorts(viewModel: built.viewModel, ports: built.ports) : built.viewModel,
            bag: seed.bag,
            heldEvents: seed.heldEvents?.isHolding == true ? seed.heldEvents : nil, ports: built.boxes)
    }

    /// Ends the instance: observers are dropped first (nothing more reaches them), then the
    /// bag releases every binding, then ports let go of their actions.
    func tearDown() {
        for port in ports {
            if case .output(let output) = port { output.closeJSON() }
        }
        bag.dispose()
        for port in ports { port.box.detach() }
    }
}

/// A view model with its typed `Ports` value, for an instance a typed ``ChildViewModel``
/// handle drives (see ``InstanceRuntime``). A class internal to the kit, so that no view
/// model can be mistaken for it.
@usableFromInline final class ViewModelWithPorts {
    let viewModel: Any
    let ports: Any

    @usableFromInline init(viewModel: Any, ports: Any) {
        self.viewModel = viewModel
        self.ports = ports
    }
}
