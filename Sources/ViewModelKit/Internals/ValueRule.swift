import JSONCore

/// How an incoming value is checked: its schema, and what an omitted value means
/// (the schema's `default`, else `null`, as PROTOCOL.md section 5 says).
struct ValueRule: Sendable {
    let schema: JSONSchema
    let omitted: JSONValue
    /// The schema as a plain type test when that is all it checks (most inputs: `Int`,
    /// `String`, `Bool`, `Void`): valid values skip the schema interpreter.
    let typeCheck: JSONSchemaTypeCheck?
    /// Otherwise the schema compiled once into plain tests when its keywords allow (records,
    /// `Codable` or hand-written, arrays of them): valid values skip the interpreter too.
    let shapeCheck: JSONSchemaShapeCheck?

    init(schema document: JSONValue) throws(JSONSchemaError) {
        schema = try JSONSchema(document)
        omitted = document["default"] ?? .null
        typeCheck = JSONSchemaTypeCheck(schema)
        shapeCheck = typeCheck == nil ? JSONSchemaShapeCheck(schema) : nil
    }

    /// `value` (or what its omission means) if it satisfies the schema, else the first
    /// violation as path, expected, got. Always inlined: this is every `vm.send`'s path, and
    /// with the shape check beside the type check the compiler stopped inlining it (~140
    /// instructions more per Int send in callgrind, `.ci/instructions` `send`).
    @inline(__always)
    func check(_ value: JSONValue?) -> Result<JSONValue, JSONSchemaViolation> {
        let value = value ?? omitted
        // A value the type test rejects still goes to the interpreter, which words the violation.
        if let typeCheck, typeCheck.admits(value) { return .success(value) }
        if let shapeCheck, shapeCheck.admits(value) { return .success(value) }
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
