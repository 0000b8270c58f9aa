import JSONCore

/// How an incoming value is checked: its schema, and what an omitted value means
/// (the schema's `default`, else `null`, as PROTOCOL.md section 5 says).
struct ValueRule: Sendable {
    let schema: JSONSchema
    let omitted: JSONValue
    /// The schema compiled once into plain tests when its keywords allow (`Int`, `String`,
    /// `Bool`, `Void`, and records of them, `Codable` or hand-written): valid values skip the
    /// schema interpreter.
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
