import JSONCore

/// Reading a VALUE word by the JSON Schema of what it goes to (an input, an action's input,
/// a creation argument), as `vm.types` describes it.
///
/// A word that is not valid JSON, or is a quoted JSON string, is that string. A word that is
/// valid JSON of another kind (`5`, `true`, `null`, `[1]`) is read by the schema: as JSON when
/// the schema takes that kind and no string, as the word itself when the schema takes a
/// string and not that kind, and refused as ambiguous when the schema takes both.
enum SchemaValue {
    /// What a word means for a schema.
    enum Reading: Equatable {
        case value(JSONValue)
        /// The word reads as two values the schema both accepts; the message says how to choose.
        case ambiguous(String)
    }

    /// Whether reading `word` can depend on a schema at all: only words that parse as JSON
    /// other than a string do (everything else is a string whatever the schema).
    static func needsSchema(_ word: String) -> Bool {
        guard let json = try? JSONValue(parsing: word) else { return false }
        if case .string = json { return false }
        return true
    }

    /// Reads `word` for `schema` (`nil`: no schema known, JSON when it parses, else the word).
    static func read(_ word: String, schema: JSONValue?) -> Reading {
        guard let json = try? JSONValue(parsing: word) else { return .value(.string(word)) }
        if case .string = json { return .value(json) }
        guard let schema, let kinds = kinds(of: schema) else { return .value(json) }
        let kind = kindName(json)
        let takesKind = kinds.contains(kind) || (kind == "integer" && kinds.contains("number"))
        let takesString = kinds.contains("string")
        switch (takesKind, takesString) {
        case (true, true):
            return .ambiguous("'\(word)' reads as the \(kind) \(json.encodedString()) and as the string \(JSONValue.string(word).encodedString()), and both are accepted; write '\(JSONValue.string(word).encodedString())' for the string")
        case (false, true):
            return .value(.string(word))
        default:
            // The JSON reading, even when the schema refuses it: the daemon's invalidValue says why.
            return .value(json)
        }
    }

    /// The JSON kinds a schema accepts (`"integer"` for whole numbers), or `nil` for any.
    static func kinds(of schema: JSONValue) -> Set<String>? {
        guard case .object(let object) = schema else { return nil }
        if let type = object["type"] {
            if let name = type.stringValue { return [name] }
            if let names = type.arrayValue { return Set(names.compactMap(\.stringValue)) }
        }
        if let values = object["enum"]?.arrayValue { return Set(values.map(kindName)) }
        if let constant = object["const"] { return [kindName(constant)] }
        for key in ["oneOf", "anyOf"] {
            guard let branches = object[key]?.arrayValue else { continue }
            var union = Set<String>()
            for branch in branches {
                guard let kinds = kinds(of: branch) else { return nil }
                union.formUnion(kinds)
            }
            return union
        }
        return nil
    }

    private static func kindName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .double: "number"
        }
    }
}
