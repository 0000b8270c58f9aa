/// One compiled (sub)schema: a class so that subschemas can nest; immutable (one `let`
/// of a Sendable struct), so it is shared freely across threads.
final class JSONSchemaNode: Sendable {
    let keywords: Keywords

    init(_ keywords: Keywords) {
        self.keywords = keywords
    }

    /// JSON types a schema's `type` keyword can name, as a bit set.
    struct Types: OptionSet, Sendable {
        let rawValue: UInt8
        static let null = Types(rawValue: 1)
        static let boolean = Types(rawValue: 2)
        static let integer = Types(rawValue: 4)
        static let number = Types(rawValue: 8)
        static let string = Types(rawValue: 16)
        static let array = Types(rawValue: 32)
        static let object = Types(rawValue: 64)

        static let names: [(String, Types)] = [
            ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object),
        ]

        /// "integer", "string or null", "array, object or null".
        var spelled: String {
            let parts = Types.names.filter { contains($0.1) }.map(\.0)
            guard parts.count > 1 else { return parts.first ?? "nothing" }
            return parts.dropLast().joined(separator: ", ") + " or " + (parts.last ?? "")
        }
    }

  /// The keywords of one schema object, filled in by the compiler.
  struct Keywords: Sendable {
    /// `true`/`false` schemas, or nil for an object schema.
    var constantOutcome: Bool? = nil
    var types: Types? = nil
    var enumValues: [JSONValue]? = nil
    var constValue: JSONValue? = nil
    var minimum: JSONValue? = nil
    var maximum: JSONValue? = nil
    var exclusiveMinimum: JSONValue? = nil
    var exclusiveMaximum: JSONValue? = nil
    var multipleOf: Double? = nil
    var minLength: Int? = nil
    var maxLength: Int? = nil
    /// Regex source. `Regex` is not Sendable (it compiles lazily into shared state), so the
    /// compiler only checks the syntax and validation builds a fresh Regex when needed.
    var pattern: String? = nil
    var properties: [String: JSONSchemaNode] = [:]
    var propertyOrder: [String] = []
    var required: [String] = []
    var additionalProperties: JSONSchemaNode? = nil
    var minProperties: Int? = nil
    var maxProperties: Int? = nil
    var items: JSONSchemaNode? = nil
    var prefixItems: [JSONSchemaNode] = []
    var minItems: Int? = nil
    var maxItems: Int? = nil
    var uniqueItems = false
    var allOf: [JSONSchemaNode] = []
    var anyOf: [JSONSchemaNode] = []
    var oneOf: [JSONSchemaNode] = []
    var not: JSONSchemaNode? = nil
    var reference: String? = nil
  }
}
