/// Small constructors for the JSON Schemas (2020-12) that typed values publish.
public enum JSONSchemaBuilder {
    /// `{"type": "object", "properties": …, "required": […], "additionalProperties": false}`.
    /// Properties keep the order given, so the published schema is deterministic.
    public static func object(
        _ properties: KeyValuePairs<String, JSONValue>,
        required: [String] = [],
        additionalProperties: Bool = false,
        description: String? = nil
    ) -> JSONValue {
        var schema: JSONObject = ["type": "object"]
        if let description { schema["description"] = .string(description) }
        var members = JSONObject(minimumCapacity: properties.count)
        for (name, property) in properties { members[name] = property }
        schema["properties"] = .object(members)
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        schema["additionalProperties"] = .bool(additionalProperties)
        return .object(schema)
    }

    /// `{"type": "array", "items": items}` with optional bounds.
    public static func array(of items: JSONValue, minItems: Int? = nil, maxItems: Int? = nil) -> JSONValue {
        var schema: JSONObject = ["type": "array", "items": items]
        if let minItems { schema["minItems"] = .integer(Int64(minItems)) }
        if let maxItems { schema["maxItems"] = .integer(Int64(maxItems)) }
        return .object(schema)
    }

    /// `{"type": "string", "enum": [...]}`: one of a fixed set of strings.
    public static func oneOfStrings(_ cases: [String]) -> JSONValue {
        ["type": "string", "enum": .array(cases.map(JSONValue.string))]
    }

    /// The annotation that marks a value a run makes up (a child instance's id, a store's id),
    /// which a tape's replay matches by place rather than by value (Protocol/PROTOCOL.md, "Ids").
    public static let runIdKeyword = "x-vmd-run-id"

    /// `schema` marked as a value a run makes up (``runIdKeyword``).
    public static func runId(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object[runIdKeyword] = true
        return .object(object)
    }

    /// `{"type": "null"}`: the schema of "no value" (an action without input or output).
    public static var null: JSONValue { ["type": "null"] }

    /// `schema` with a `description` (and optional `title`) added, for people reading `vm.types`.
    public static func describe(_ schema: JSONValue, _ description: String, title: String? = nil) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if let title { object["title"] = .string(title) }
        object["description"] = .string(description)
        return .object(object)
    }
}
