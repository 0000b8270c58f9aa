import JSONCore

/// One registered view-model type: its description, the compiled schemas every incoming
/// value is checked against, and the factory that builds an instance. Immutable.
@usableFromInline final class RegisteredType: Sendable {
    /// Builds one instance (see ``InstanceRuntime/build(_:seed:layout:services:)``).
    @usableFromInline typealias Factory = @Sendable (InstanceSeed) throws(JSONDecodingError) -> (runtime: InstanceRuntime, ports: PortList)

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
