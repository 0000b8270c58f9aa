import JSONCore

/// Reading VALUE words and writing values for people.
enum ValueText {
    /// A value as a script wants it from `get`/`exec`: strings raw, anything else as JSON.
    ///
    /// A string whose raw text would not read back as itself prints in its JSON form, the
    /// way `vmctl send` reads it (SchemaValue.swift): the empty string as `""` (not a blank
    /// line, which an empty argument cannot be told from), and a string that is itself a
    /// quoted JSON string (`"hi"`, quotes included) escaped.
    static func plain(_ value: JSONValue) -> String {
        if case .string(let text) = value, !text.isEmpty, !isQuotedJSONString(text) { return text }
        return value.encodedString()
    }

    private static func isQuotedJSONString(_ text: String) -> Bool {
        if case .string? = try? JSONValue(parsing: text) { return true }
        return false
    }

    /// A short reading of a JSON Schema: `integer`, `string (default "x")`, `boolean`,
    /// `integer ≥ 0, default 500`, `no value`, `one of "a", "b"`.
    static func schemaSummary(_ schema: JSONValue) -> String {
        guard case .object(let object) = schema else { return schema == .bool(true) ? "any" : "none" }
        var parts: [String] = []
        if let values = object["enum"]?.arrayValue {
            parts.append("one of " + values.map { $0.encodedString() }.joined(separator: ", "))
        } else if let constant = object["const"] {
            parts.append("always \(constant.encodedString())")
        } else if let type = object["type"] {
            if type == "null" { return "no value" }
            var name = type.stringValue ?? (type.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " or ")
            if name == "array", let items = object["items"] { name = "array of " + schemaSummary(items) }
            parts.append(name)
        } else if object["oneOf"] != nil || object["anyOf"] != nil {
            parts.append("one of several shapes")
        } else {
            parts.append("any")
        }
        switch (object["minimum"], object["maximum"]) {
        case let (minimum?, maximum?): parts[0] += " from \(minimum.encodedString()) to \(maximum.encodedString())"
        case let (minimum?, nil): parts[0] += " ≥ \(minimum.encodedString())"
        case let (nil, maximum?): parts[0] += " ≤ \(maximum.encodedString())"
        case (nil, nil): break
        }
        if let minLength = object["minLength"]?.intValue { parts.append("at least \(minLength) characters") }
        if let defaultValue = object["default"] { parts.append("default \(defaultValue.encodedString())") }
        return parts.joined(separator: ", ")
    }
}
