/// Typed views of a ``JSONValue``: each returns `nil` when the value is of another kind.
extension JSONValue {
    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an exact `Int64`: an integer, or a double with no fractional part that fits.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return JSONValue.exactInteger(value)
        default: return nil
        }
    }

    /// The number as an exact `Int` (see ``int64Value``).
    public var intValue: Int? {
        guard let value = int64Value else { return nil }
        return Int(exactly: value)
    }

    /// The number as a `Double` (integers convert, possibly rounding past 2^53).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// Whether this is a number (integer or double).
    public var isNumber: Bool {
        switch self {
        case .integer, .double: return true
        default: return false
        }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; `nil` if this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; `nil` if this is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The JSON type name of this value as JSON Schema spells it ("null", "boolean",
    /// "integer", "number", "string", "array", "object"). Integral doubles report "number".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
