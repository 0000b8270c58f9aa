/// One derivation of a schema from a `Decodable` type (``JSONSchemaBuilder/schema(for:)``).
///
/// It runs the type's own `init(from:)` against ``ProbeDecoder``, which answers every
/// request with a stand-in value (`0`, `""`, one element per array, one member per
/// dictionary) and records what was asked for in ``ProbeNode``s. Types are probed
/// depth-first; a type met again inside itself is not probed again but referred to.
final class SchemaProbe {
    /// Types being probed, outermost first (recursion shows up as a repeat).
    private var stack: [ObjectIdentifier] = []
    /// Types found to refer to themselves.
    private var recursive: Set<ObjectIdentifier> = []
    /// `$defs` of the root schema: recursive types nested below the root.
    private var definitions: [(name: String, schema: JSONValue)] = []
    private var definitionNames: [ObjectIdentifier: String] = [:]
    /// The root type's name and the members leading to the type being probed
    /// (`["Settings", ".status", ".mood"]`), for ``SchemaDerivationProblem``s.
    private var memberPath: [String] = []
    /// Why types probed so far could give no stand-in value, when the derivation knows.
    private var undescribable: [ObjectIdentifier: String] = [:]

    /// Thrown when the probe cannot make a stand-in value of a member's type.
    struct NoStandIn: Error {}

    /// The schema of `T`, with `$defs` for nested recursive types; `T`'s own stated schema
    /// (if any) is not used, its members' are.
    func rootSchema<T: Decodable>(of type: T.Type) -> JSONValue {
        memberPath = [Self.name(of: T.self)]
        let schema = probe(T.self, root: true).schema
        guard !definitions.isEmpty, case .object(var object) = schema else { return schema }
        var defs = JSONObject(minimumCapacity: definitions.count)
        for definition in definitions { defs[definition.name] = definition.schema }
        object["$defs"] = .object(defs)
        return .object(object)
    }

    /// The schema of `T` (the type of `member`, written `.name` or `[]`, of the type being
    /// probed) and, when one could be made, a stand-in value of it.
    func probe<T: Decodable>(_ type: T.Type, member: String) -> (schema: JSONValue, value: T?) {
        memberPath.append(member)
        defer { memberPath.removeLast() }
        return probe(T.self)
    }

    /// The problem of a required struct member `member` of type `T` that gave no stand-in
    /// value: the members after it go unseen, so the struct's schema would lie. `nil` when
    /// the derivation does not know why (the member's own members are reported there).
    func problem<T>(member: String, of type: T.Type) -> SchemaDerivationProblem? {
        guard let reason = undescribable[ObjectIdentifier(T.self)] else { return nil }
        return SchemaDerivationProblem(member: (memberPath + [member]).joined(), type: Self.name(of: T.self), reason: reason)
    }

    /// `T`'s Swift name as `String(describing:)` prints it, without the protocol-conformance
    /// casts that tries first (first-time scans at start-up; Performance.md, issue 27).
    static func name<T>(of type: T.Type) -> String {
        _typeName(T.self, qualified: false)
    }

    /// The schema of `T` and, when one could be made, a stand-in value of it.
    func probe<T: Decodable>(_ type: T.Type, root: Bool = false) -> (schema: JSONValue, value: T?) {
        if let scalar = ScalarProbe.probe(T.self) { return (scalar.schema, scalar.value) }
        let given = root ? nil : SchemaProbe.givenSchema(of: T.self)
        if let cases = EnumerationCases.values(of: T.self), let first = EnumerationCases.first(of: T.self) {
            return (given ?? SchemaProbe.enumeration(cases), first)
        }
        if Self.isStandardContainer(T.self) {
            // Arrays, dictionaries and optionals: recursion always passes through a named type.
            let (node, value) = run(T.self)
            return (given ?? node.schema, value)
        }
        let id = ObjectIdentifier(T.self)
        if stack.contains(id) {
            recursive.insert(id)
            return (given ?? reference(to: T.self), nil)
        }
        stack.append(id)
        defer { stack.removeLast() }
        let (node, value) = run(T.self)
        if value == nil, given == nil, let reason = SchemaDerivationProblem.reason(T.self, node: node) {
            // No stand-in value: a struct holding one as a required member cannot be probed
            // past it (``problem(member:of:)``).
            undescribable[id] = reason
        }
        let schema = given ?? node.schema
        guard recursive.contains(id), stack.count > 1 else { return (schema, value) }
        if !definitions.contains(where: { $0.name == definitionName(of: T.self) }) {
            definitions.append((definitionName(of: T.self), schema))
        }
        return (reference(to: T.self), value)
    }

    /// Whether `T` is one of the standard library's generic containers (`Array`, `Set`,
    /// `Dictionary`, `Optional`), which the probe does not count as types that can recur
    /// (`[Node]` inside `Node` recurs at `Node`).
    ///
    /// Told by the type's qualified name: a conformance of those four to a protocol of ours,
    /// asked as `T.self is any P.Type`, cost a first-time scan of every protocol-conformance
    /// record for each type probed, most of them at start-up (Performance.md, issue 27). Only
    /// the standard library declares types in `Swift`; a type nested in an extension of one
    /// of them is named `(extension in M):Swift.Array<…>.Inner`, and one nested in their own
    /// declaration (`Swift.Array<…>.Inner`) does not end at the bracket its arguments opened.
    static func isStandardContainer<T>(_ type: T.Type) -> Bool {
        let name = _typeName(T.self, qualified: true).utf8
        let prefixes = ["Swift.Array<", "Swift.Set<", "Swift.Dictionary<", "Swift.Optional<"]
        guard let prefix = prefixes.first(where: { name.starts(with: $0.utf8) }) else { return false }
        // The arguments' bracket closes at the name's last byte.
        var depth = 0
        for (offset, byte) in name.dropFirst(prefix.utf8.count - 1).enumerated() {
            if byte == UInt8(ascii: "<") { depth += 1 }
            if byte == UInt8(ascii: ">") { depth -= 1 }
            if depth == 0 { return offset == name.count - prefix.utf8.count }
        }
        return false
    }

    /// Runs `T`'s `init(from:)` against the probe; if no stand-in value comes out, runs it
    /// again asking for as little as possible (empty collections, nil optionals), which ends
    /// recursion. The first run's record is the one that describes the type.
    private func run<T: Decodable>(_ type: T.Type) -> (ProbeNode, T?) {
        let node = ProbeNode()
        if let value = try? T(from: ProbeDecoder(probe: self, node: node, codingPath: [], minimal: false)) { return (node, value) }
        return (node, try? T(from: ProbeDecoder(probe: self, node: ProbeNode(), codingPath: [], minimal: true)))
    }

    /// The schema a type states itself (``JSONSchemaProviding`` first, then
    /// ``JSONConvertible``), if it does.
    static func givenSchema<T>(of type: T.Type) -> JSONValue? {
        if let providing = T.self as? any JSONSchemaProviding.Type { return providing.jsonSchema }
        if let convertible = T.self as? any JSONConvertible.Type { return convertible.jsonSchema }
        return nil
    }

    /// `{"type": …, "enum": […]}` for the JSON forms of an enumeration's cases.
    static func enumeration(_ cases: [JSONValue]) -> JSONValue {
        var object = JSONObject()
        let types = Set(cases.map(\.typeName))
        if types.count == 1, let only = types.first { object["type"] = .string(only) }
        object["enum"] = .array(cases)
        return .object(object)
    }

    private func reference<T>(to type: T.Type) -> JSONValue {
        if stack.first == ObjectIdentifier(T.self) { return ["$ref": "#"] }
        return ["$ref": .string("#/$defs/" + definitionName(of: T.self))]
    }

    /// A `$defs` name for `T`: its Swift name reduced to letters, digits and `_`, made
    /// unique among the types of this derivation.
    private func definitionName<T>(of type: T.Type) -> String {
        let id = ObjectIdentifier(T.self)
        if let name = definitionNames[id] { return name }
        let base = String(Self.name(of: T.self).map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        var name = base
        var suffix = 2
        while definitionNames.values.contains(name) {
            name = base + "_" + String(suffix)
            suffix += 1
        }
        definitionNames[id] = name
        return name
    }
}
