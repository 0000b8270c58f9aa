// JSONConvertible for the standard types vmd's typed values are made of.

extension JSONValue: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) { self = json }
    public var jsonValue: JSONValue { self }
    /// Any JSON value: the empty schema.
    public static var jsonSchema: JSONValue { [:] }
}

extension JSONObject: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard case .object(let object) = json else { throw .typeMismatch(expected: "object", got: json) }
        self = object
    }
    public var jsonValue: JSONValue { .object(self) }
    public static var jsonSchema: JSONValue { ["type": "object"] }
}

extension Bool: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard case .bool(let value) = json else { throw .typeMismatch(expected: "boolean", got: json) }
        self = value
    }
    public var jsonValue: JSONValue { .bool(self) }
    public static var jsonSchema: JSONValue { ["type": "boolean"] }
}

extension String: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard case .string(let value) = json else { throw .typeMismatch(expected: "string", got: json) }
        self = value
    }
    public var jsonValue: JSONValue { .string(self) }
    public static var jsonSchema: JSONValue { ["type": "string"] }
}

extension Int64: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard let value = json.int64Value else {
            if json.isNumber {
                throw JSONDecodingError(expected: "integer", got: "number \(json)", detail: "not a whole number within 64 bits")
            }
            throw .typeMismatch(expected: "integer", got: json)
        }
        self = value
    }
    public var jsonValue: JSONValue { .integer(self) }
    public static var jsonSchema: JSONValue { ["type": "integer"] }
}

extension Int: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        let wide = try Int64(json: json)
        guard let value = Int(exactly: wide) else {
            throw JSONDecodingError(expected: "integer", got: "number \(wide)", detail: "out of range for Int")
        }
        self = value
    }
    public var jsonValue: JSONValue { .integer(Int64(self)) }
    public static var jsonSchema: JSONValue { ["type": "integer"] }
}

extension Double: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard let value = json.doubleValue else { throw .typeMismatch(expected: "number", got: json) }
        self = value
    }
    public var jsonValue: JSONValue { .double(self) }
    public static var jsonSchema: JSONValue { ["type": "number"] }
}

extension Optional: JSONConvertible where Wrapped: JSONConvertible {
    /// `null` decodes as `nil`; anything else as the wrapped type.
    public init(json: JSONValue) throws(JSONDecodingError) {
        if case .null = json {
            self = .none
            return
        }
        do throws(JSONDecodingError) {
            self = .some(try Wrapped(json: json))
        } catch {
            var widened = error
            if error.path == .root, !error.expected.hasSuffix(" or null") { widened.expected += " or null" }
            throw widened
        }
    }

    public var jsonValue: JSONValue { self.map(\.jsonValue) ?? .null }

    /// The wrapped schema widened to accept `null`: `"type": ["string", "null"]` when the
    /// wrapped schema names one type, else `anyOf` the wrapped schema and `{"type": "null"}`.
    public static var jsonSchema: JSONValue {
        let wrapped = Wrapped.jsonSchema
        if case .object(var object) = wrapped, case .string(let type)? = object["type"] {
            object["type"] = [.string(type), "null"]
            return .object(object)
        }
        return ["anyOf": [wrapped, ["type": "null"]]]
    }
}

extension Array: JSONConvertible where Element: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard case .array(let elements) = json else { throw .typeMismatch(expected: "array", got: json) }
        var decoded: [Element] = []
        decoded.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do throws(JSONDecodingError) {
                decoded.append(try Element(json: element))
            } catch {
                throw error.prefixed(by: .index(index))
            }
        }
        self = decoded
    }
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
    public static var jsonSchema: JSONValue { ["type": "array", "items": Element.jsonSchema] }
}

extension Dictionary: JSONConvertible where Key == String, Value: JSONConvertible {
    public init(json: JSONValue) throws(JSONDecodingError) {
        guard case .object(let object) = json else { throw .typeMismatch(expected: "object", got: json) }
        var decoded: [String: Value] = [:]
        decoded.reserveCapacity(object.count)
        for (key, member) in object {
            do throws(JSONDecodingError) {
                decoded[key] = try Value(json: member)
            } catch {
                throw error.prefixed(by: .key(key))
            }
        }
        self = decoded
    }

    /// Members in sorted key order, so the encoding is deterministic.
    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: count)
        for key in keys.sorted() {
            if let value = self[key] { object.append(uniqueKey: key, value.jsonValue) }
        }
        return .object(object)
    }

    public static var jsonSchema: JSONValue { ["type": "object", "additionalProperties": Value.jsonSchema] }
}
