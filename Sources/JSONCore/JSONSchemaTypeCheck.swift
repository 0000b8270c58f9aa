/// The whole check of a schema that constrains nothing but its value's JSON type (such as
/// `{"type": ["integer", "null"], "description": …}`): a type test, without running the
/// schema interpreter (``JSONSchema/validate(_:)``) or allocating.
///
/// ``init(_:)`` returns `nil` for any schema with another keyword; ``admits(_:)`` answers
/// exactly what ``JSONSchema/isValid(_:)`` answers for the schema it came from.
public struct JSONSchemaTypeCheck: Sendable {
    /// The types `type` allows; `nil` when the schema has no `type` (anything is valid).
    let types: JSONSchemaNode.Types?

    /// The type check `schema` amounts to, or `nil` when it checks more than the type.
    public init?(_ schema: JSONSchema) {
        let keywords = schema.root.keywords
        if keywords.constantOutcome == true {
            types = nil
            return
        }
        guard keywords.constantOutcome == nil, keywords.reference == nil,
              keywords.enumValues == nil, keywords.constValue == nil,
              keywords.minimum == nil, keywords.maximum == nil,
              keywords.exclusiveMinimum == nil, keywords.exclusiveMaximum == nil,
              keywords.multipleOf == nil, keywords.minLength == nil, keywords.maxLength == nil,
              keywords.pattern == nil, keywords.properties.isEmpty, keywords.required.isEmpty,
              keywords.additionalProperties == nil, keywords.minProperties == nil, keywords.maxProperties == nil,
              keywords.items == nil, keywords.prefixItems.isEmpty, keywords.minItems == nil, keywords.maxItems == nil,
              !keywords.uniqueItems, keywords.allOf.isEmpty, keywords.anyOf.isEmpty, keywords.oneOf.isEmpty,
              keywords.not == nil
        else { return nil }
        types = keywords.types
    }

    /// Whether `value` satisfies the schema: the same answer as ``JSONSchema/isValid(_:)``,
    /// with the same type rules (an integral `2.0` is an integer; every integer is a number).
    public func admits(_ value: JSONValue) -> Bool {
        guard let types else { return true }
        return Self.admits(value, types)
    }

    /// Whether `value`'s JSON type is among `types`, with the type rules above; the one place
    /// they are written (`JSONSchemaShapeCheck` asks it too).
    @inline(__always) static func admits(_ value: JSONValue, _ types: JSONSchemaNode.Types) -> Bool {
        switch value {
        case .null: return types.contains(.null)
        case .bool: return types.contains(.boolean)
        case .integer: return !types.isDisjoint(with: [.integer, .number])
        case .double(let number):
            if types.contains(.number) { return true }
            return types.contains(.integer) && JSONValue.exactInteger(number) != nil
        case .string: return types.contains(.string)
        case .array: return types.contains(.array)
        case .object: return types.contains(.object)
        }
    }
}
