/// A compiled JSON Schema (a 2020-12 subset) that validates ``JSONValue``s.
///
/// Supported keywords: boolean schemas, `type` (one or an array; "integer" accepts
/// integral numbers such as `2.0`, as the spec says), `enum`, `const`, `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`/`maxLength` (counted in
/// Unicode code points, as the spec says), `pattern` (unanchored, Swift Regex syntax),
/// `properties`, `required`, `additionalProperties`, `minProperties`/`maxProperties`,
/// `items`, `prefixItems`, `minItems`/`maxItems`, `uniqueItems`, `allOf`, `anyOf`,
/// `oneOf`, `not`, and `$ref` to `#`, `#/$defs/Name` or `#/definitions/Name`.
/// Annotations (`title`, `description`, `default`, `examples`, `$schema`, `$id`, `format`…)
/// and unknown keywords are ignored, as the spec requires.
public struct JSONSchema: Sendable {
    let root: JSONSchemaNode
    let definitions: [String: JSONSchemaNode]
    /// The schema document this was compiled from.
    public let document: JSONValue

    /// Compiles `document`; fails if a keyword has the wrong shape or a `$ref` does not resolve.
    public init(_ document: JSONValue) throws(JSONSchemaError) {
        self.document = document
        var compiler = JSONSchemaCompiler()
        var definitions: [String: JSONSchemaNode] = [:]
        for keyword in ["$defs", "definitions"] {
            guard let defs = document[keyword] else { continue }
            guard case .object(let members) = defs else {
                throw JSONSchemaError(path: JSONPath([.key(keyword)]), message: "\(keyword) must be an object")
            }
            for (name, schema) in members {
                definitions["#/\(keyword)/\(name)"] = try compiler.compile(schema, at: JSONPath([.key(keyword), .key(name)]))
            }
        }
        root = try compiler.compile(document, at: .root)
        for (reference, path) in compiler.references where reference != "#" && definitions[reference] == nil {
            throw JSONSchemaError(path: path, message: "$ref \"\(reference)\" does not resolve (supported: \"#\", \"#/$defs/Name\")")
        }
        self.definitions = definitions
    }

    /// Whether `value` satisfies the schema.
    public func isValid(_ value: JSONValue) -> Bool {
        var validation = JSONSchemaValidation(schema: self, limit: 1)
        validation.check(root, value)
        return validation.violations.isEmpty
    }

    /// Throws the first violation, if any.
    public func validate(_ value: JSONValue) throws(JSONSchemaViolation) {
        var validation = JSONSchemaValidation(schema: self, limit: 1)
        validation.check(root, value)
        if let first = validation.violations.first { throw first }
    }

    /// Every violation (up to `limit`), in document order.
    public func violations(of value: JSONValue, limit: Int = 32) -> [JSONSchemaViolation] {
        var validation = JSONSchemaValidation(schema: self, limit: limit)
        validation.check(root, value)
        return validation.violations
    }

    func resolve(_ reference: String) -> JSONSchemaNode? {
        reference == "#" ? root : definitions[reference]
    }
}
