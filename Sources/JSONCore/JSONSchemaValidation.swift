/// One validation run: walks a value against compiled nodes, collecting violations with
/// their paths. Paths are kept as a stack and only turned into ``JSONPath`` on failure, so a
/// value that passes costs no path allocations.
struct JSONSchemaValidation {
    let schema: JSONSchema
    let limit: Int
    var violations: [JSONSchemaViolation] = []
    var path: [JSONPath.Component] = []
    var depth = 0

    /// Nesting of subschema applications (including `$ref` hops) past which a schema is
    /// taken to recurse without consuming the value (`{"$ref": "#"}` at the root).
    static let maximumDepth = 512

    init(schema: JSONSchema, limit: Int) {
        self.schema = schema
        self.limit = max(1, limit)
    }

    var isFull: Bool { violations.count >= limit }

    mutating func fail(expected: String, got: String, message: String? = nil, extra: JSONPath.Component? = nil) {
        guard !isFull else { return }
        var components = path
        if let extra { components.append(extra) }
        violations.append(JSONSchemaViolation(path: JSONPath(components), expected: expected, got: got, message: message))
    }

    mutating func check(_ node: JSONSchemaNode, _ value: JSONValue) {
        guard !isFull else { return }
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONSchemaValidation.maximumDepth else {
            fail(expected: "a schema that terminates", got: "a recursive $ref", message: "schema recursion is too deep")
            return
        }
        let keywords = node.keywords
        if let outcome = keywords.constantOutcome {
            if !outcome { fail(expected: "nothing (the schema is false)", got: value.typeName) }
            return
        }
        if let reference = keywords.reference, let target = schema.resolve(reference) {
            check(target, value)
        }
        if let types = keywords.types, !JSONSchemaValidation.types(of: value).contains(where: types.contains) {
            fail(expected: types.spelled, got: value.typeName)
            return  // further keywords would only repeat the type mismatch
        }
        if let constValue = keywords.constValue, constValue != value {
            fail(expected: constValue.encodedString(), got: JSONSchemaValidation.brief(value))
        }
        if let enumValues = keywords.enumValues, !enumValues.contains(value) {
            let options = enumValues.map { $0.encodedString() }.joined(separator: ", ")
            fail(expected: "one of \(options)", got: JSONSchemaValidation.brief(value))
        }
        switch value {
        case .integer, .double: checkNumber(keywords, value)
        case .string(let text): checkString(keywords, text)
        case .array(let elements): checkArray(keywords, elements)
        case .object(let object): checkObject(keywords, object)
        default: break
        }
        checkCombinators(keywords, value)
    }

    /// The JSON Schema types `value` belongs to: an integral number is both "integer" and "number".
    static func types(of value: JSONValue) -> [JSONSchemaNode.Types] {
        switch value {
        case .null: return [.null]
        case .bool: return [.boolean]
        case .integer: return [.integer, .number]
        case .double(let number): return JSONValue.exactInteger(number) != nil ? [.integer, .number] : [.number]
        case .string: return [.string]
        case .array: return [.array]
        case .object: return [.object]
        }
    }

    /// A short rendering of a value for "got": scalars verbatim, containers by type.
    static func brief(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.typeName
        case .string(let text) where text.unicodeScalars.count > 40: return "a string of \(text.unicodeScalars.count) characters"
        default: return value.encodedString()
        }
    }

    /// Does `value` pass `node`? (A throwaway run that stops at the first violation.)
    func passes(_ node: JSONSchemaNode, _ value: JSONValue) -> Bool {
        var trial = JSONSchemaValidation(schema: schema, limit: 1)
        trial.path = path
        trial.depth = depth
        trial.check(node, value)
        return trial.violations.isEmpty
    }

    /// Human description of what `node` accepts, for "expected".
    func expectation(_ node: JSONSchemaNode, hops: Int = 0) -> String {
        let keywords = node.keywords
        if let outcome = keywords.constantOutcome { return outcome ? "any value" : "nothing" }
        if let types = keywords.types { return types.spelled }
        if let constValue = keywords.constValue { return constValue.encodedString() }
        if let values = keywords.enumValues { return "one of " + values.map { $0.encodedString() }.joined(separator: ", ") }
        if let reference = keywords.reference, hops < 8, let target = schema.resolve(reference) {
            return expectation(target, hops: hops + 1)
        }
        let branches = keywords.anyOf.isEmpty ? keywords.oneOf : keywords.anyOf
        if !branches.isEmpty, hops < 8 {
            return branches.map { expectation($0, hops: hops + 1) }.joined(separator: " or ")
        }
        return "a value matching the schema"
    }
}
