import JSONCore
import VMProtocol

/// Where a VALUE word goes, and how vmctl asks the daemon (`vm.list`, `vm.types`) for the
/// schema that reads it. A lookup that fails leaves the word to its plain JSON reading: the
/// call itself then reports what is wrong (an unknown instance, input or type).
enum ValueTarget {
    case input(instance: String, name: String)
    case action(instance: String, name: String)
    case argument(type: String, key: String)

    /// The schema of the target, or `nil` when the daemon does not say.
    func schema(_ run: Invocation) -> JSONValue? {
        switch self {
        case .input(let instance, let name):
            guard let type = Self.type(of: instance, run) else { return nil }
            return Self.member(of: type, "inputs", name, run)?["schema"]
        case .action(let instance, let name):
            guard let type = Self.type(of: instance, run) else { return nil }
            return Self.member(of: type, "actions", name, run)?["input"]
        case .argument(let type, let key):
            return Self.describe(type, run)?["args"]?["properties"]?[key]
        }
    }

    /// What `target` says in errors: `input "email" of l1`.
    var subject: String {
        switch self {
        case .input(let instance, let name): "input \(JSONValue.string(name).encodedString()) of \(instance)"
        case .action(let instance, let name): "action \(JSONValue.string(name).encodedString()) of \(instance)"
        case .argument(let type, let key): "argument \(JSONValue.string(key).encodedString()) of \(type)"
        }
    }

    private static func type(of instance: String, _ run: Invocation) -> String? {
        guard let listed = try? run.call(VMListMethod.self)["instances"]?.arrayValue else { return nil }
        return listed.first { $0["instance"]?.stringValue == instance }?["type"]?.stringValue
    }

    private static func describe(_ type: String, _ run: Invocation) -> JSONValue? {
        guard let types = try? run.call(VMTypesMethod.self, VMTypesMethod.Params(type: type).jsonValue)["types"]?.arrayValue else { return nil }
        return types.first { $0["name"]?.stringValue == type }
    }

    private static func member(of type: String, _ list: String, _ name: String, _ run: Invocation) -> JSONValue? {
        describe(type, run)?[list]?.arrayValue?.first { $0["name"]?.stringValue == name }
    }
}

extension Invocation {
    /// A VALUE word read by the schema of `target` (asking the daemon only when the word's
    /// reading depends on it); an ambiguous word is a usage error that says how to write it.
    func value(_ word: String, for target: ValueTarget) throws(CommandFailure) -> JSONValue {
        let schema = SchemaValue.needsSchema(word) ? target.schema(self) : nil
        switch SchemaValue.read(word, schema: schema) {
        case .value(let value): return value
        case .ambiguous(let why): throw .usage("ambiguous value for \(target.subject): \(why)", parsed)
        }
    }
}
