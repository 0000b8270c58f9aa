import JSONCore

/// Reads a method's by-name params with precise `invalidParams` errors: each names the
/// member as a JSON Pointer (`/instance`), the expected type and the type found (or
/// `missing`), as PROTOCOL.md §4 and §10 require.
///
/// Omitted params mean `{}`; params that are not an object are an error at path `""`.
/// ``rejectUnknown(allowed:method:)`` reports a member the method does not define.
package struct ParamsReader {
    /// The params object (`{}` when omitted).
    package let object: JSONObject

    /// Starts reading `params`; fails unless it is an object or absent.
    package init(_ params: JSONValue?) throws(WireError) {
        switch params {
        case nil: object = JSONObject()
        case .object(let members)?: object = members
        case let other?: throw WireError.invalidParams(path: "", expected: "object", got: other.typeName)
        }
    }

    /// Fails on the first member not in `allowed`.
    package func rejectUnknown(allowed: [String], method: String) throws(WireError) {
        for (key, _) in object where !allowed.contains(key) {
            throw WireError.unknownParam(key, method: method)
        }
    }

    /// Reads the params in one pass: `body` gets, for each member, the position of its name in
    /// `allowed` and its value. Fails on the first member not in `allowed`, as
    /// ``rejectUnknown(allowed:method:)`` does, before `body` sees any later member. For
    /// methods that take all their params at once instead of looking each up by name (the
    /// ``requiredString(_:key:nonEmpty:)`` family then checks each value as the lookups do).
    func readMembers(allowed: [String], method: String, _ body: (Int, JSONValue) -> Void) throws(WireError) {
        for member in object {
            guard let position = allowed.firstIndex(of: member.key) else {
                throw WireError.unknownParam(member.key, method: method)
            }
            body(position, member.value)
        }
    }

    /// A required string member's `value` (`nil` when missing), as ``string(_:nonEmpty:)`` checks it.
    static func requiredString(_ value: JSONValue?, key: String, nonEmpty: Bool = false) throws(WireError) -> String {
        guard let value else { throw mismatch(key, expected: "string", got: "missing") }
        return try string(value, key: key, nonEmpty: nonEmpty)
    }

    /// An optional string member's `value`, as ``optionalString(_:nonEmpty:)`` checks it.
    static func optionalString(_ value: JSONValue?, key: String, nonEmpty: Bool = false) throws(WireError) -> String? {
        guard let value else { return nil }
        return try string(value, key: key, nonEmpty: nonEmpty)
    }

    /// An optional object member's `value`, as ``optionalObject(_:)`` checks it.
    static func optionalObject(_ value: JSONValue?, key: String) throws(WireError) -> JSONObject? {
        guard let value else { return nil }
        guard case .object(let members) = value else { throw mismatch(key, expected: "object", got: value.typeName) }
        return members
    }

    /// The member `key`, if present.
    package func value(_ key: String) -> JSONValue? { object[key] }

    /// Required string member `key`; `nonEmpty` also rejects `""`.
    package func string(_ key: String, nonEmpty: Bool = false) throws(WireError) -> String {
        try Self.requiredString(object[key], key: key, nonEmpty: nonEmpty)
    }

    /// Optional string member `key`.
    package func optionalString(_ key: String, nonEmpty: Bool = false) throws(WireError) -> String? {
        try Self.optionalString(object[key], key: key, nonEmpty: nonEmpty)
    }

    /// Optional boolean member `key`.
    package func optionalBool(_ key: String) throws(WireError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw Self.mismatch(key, expected: "boolean", got: value.typeName) }
        return flag
    }

    /// Optional integer member `key` within `range` (an integral number such as `5.0` counts).
    package func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(WireError) -> Int64? {
        guard let value = object[key] else { return nil }
        guard let number = value.int64Value else { throw Self.mismatch(key, expected: "integer", got: value.typeName) }
        guard range.contains(number) else {
            throw WireError.invalidParams(
                path: Self.pointer(key), expected: "integer from \(range.lowerBound) to \(range.upperBound)",
                got: String(number))
        }
        return number
    }

    /// Optional object member `key`.
    package func optionalObject(_ key: String) throws(WireError) -> JSONObject? {
        try Self.optionalObject(object[key], key: key)
    }

    /// Optional non-empty array of non-empty strings `key`.
    package func optionalNames(_ key: String) throws(WireError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let elements) = value else {
            throw Self.mismatch(key, expected: "array of strings", got: value.typeName)
        }
        guard !elements.isEmpty else {
            throw WireError.invalidParams(
                path: Self.pointer(key), expected: "non-empty array", got: "empty array",
                detail: "\(quoted(key)) must name at least one output; omit it to mean all outputs")
        }
        var names: [String] = []
        names.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = Self.pointer(key) + "/" + String(index)
            guard case .string(let name) = element else {
                throw WireError.invalidParams(path: path, expected: "string", got: element.typeName)
            }
            guard !name.isEmpty else { throw WireError.invalidParams(path: path, expected: "non-empty string", got: "empty string") }
            names.append(name)
        }
        return names
    }

    // MARK: Helpers

    static func string(_ value: JSONValue, key: String, nonEmpty: Bool) throws(WireError) -> String {
        guard case .string(let text) = value else { throw mismatch(key, expected: "string", got: value.typeName) }
        if nonEmpty, text.isEmpty { throw mismatch(key, expected: "non-empty string", got: "empty string") }
        return text
    }

    static func mismatch(_ key: String, expected: String, got: String) -> WireError {
        WireError.invalidParams(path: pointer(key), expected: expected, got: got)
    }

    /// `/key`, escaped as a JSON Pointer token.
    static func pointer(_ key: String) -> String { "/" + jsonPointerEscaped(key) }
}
