import JSONCore
import Testing

@Suite("JSON Schema validation")
struct JSONSchemaTests {
    static let cases: [(schema: JSONValue, value: JSONValue, valid: Bool)] = [
        (["type": "integer"], 3, true), (["type": "integer"], 3.0, true), (["type": "integer"], 3.5, false),
        (["type": "number"], 3, true), (["type": "string"], 3, false), (["type": ["string", "null"]], nil, true),
        (["type": ["string", "null"]], false, false), (true, ["anything": 1], true), (false, 1, false),
        ([:], nil, true), (["enum": [1, "a", nil]], "a", true), (["enum": [1, "a"]], 1.0, true),
        (["enum": [1, "a"]], "b", false), (["const": ["x": 1]], ["x": 1], true), (["const": 2], 3, false),
        (["minimum": 0], 0, true), (["minimum": 0], -1, false), (["exclusiveMinimum": 0], 0, false),
        (["maximum": 10], 10.5, false), (["exclusiveMaximum": 10], 9.99, true), (["multipleOf": 3], 9, true),
        (["multipleOf": 3], 10, false), (["multipleOf": 0.01], 0.07, true), (["multipleOf": 0.5], 0.75, false),
        (["minLength": 2], "é", false), (["maxLength": 2], "😀😀", true), (["maxLength": 1], "e\u{301}", false),
        (["pattern": "^[A-Za-z0-9._:-]{1,64}$"], "counter-1", true), (["pattern": "^[A-Za-z0-9._:-]{1,64}$"], "a b", false),
        (["pattern": "b"], "abc", true), (["minLength": 5], 12, true),
        (["minItems": 1], [], false), (["maxItems": 1], [1, 2], false), (["uniqueItems": true], [1, 1.0], false),
        (["items": ["type": "string"]], ["a", "b"], true), (["items": ["type": "string"]], ["a", 1], false),
        (["prefixItems": [["type": "integer"]], "items": ["type": "string"]], [1, "a"], true),
        (["prefixItems": [["type": "integer"]], "items": ["type": "string"]], ["a", "a"], false),
        (["prefixItems": [["type": "integer"]], "items": false], [1, 2], false),
        (["required": ["a"]], ["a": nil], true), (["required": ["a"]], ["b": 1], false),
        (["properties": ["a": ["type": "integer"]]], ["a": "x"], false),
        (["properties": ["a": [:]], "additionalProperties": false], ["a": 1, "b": 2], false),
        (["additionalProperties": ["type": "integer"]], ["b": 2], true),
        (["additionalProperties": ["type": "integer"]], ["b": "2"], false),
        (["minProperties": 1], [:], false), (["maxProperties": 1], ["a": 1, "b": 2], false),
        (["anyOf": [["type": "string"], ["type": "integer"]]], 1, true),
        (["anyOf": [["type": "string"], ["type": "integer"]]], nil, false),
        (["oneOf": [["type": "integer"], ["minimum": 0]]], 5, false), (["oneOf": [["type": "integer"], ["minimum": 0]]], 0.5, true),
        (["allOf": [["type": "integer"], ["minimum": 0]]], -1, false), (["not": ["type": "null"]], nil, false),
        (["$defs": ["pos": ["type": "integer", "minimum": 1]], "$ref": "#/$defs/pos"], 0, false),
        (["$defs": ["pos": ["type": "integer", "minimum": 1]], "items": ["$ref": "#/$defs/pos"]], [1, 2], true),
        (["type": "object", "properties": ["next": ["$ref": "#"]]], ["next": ["next": [:]]], true),
        (["type": "object", "properties": ["next": ["$ref": "#"]]], ["next": ["next": 1]], false),
        (["title": "ignored", "description": "x", "x-custom": 1, "format": "email"], "not an email", true),
    ]

    @Test("validates by each keyword", arguments: cases)
    func validates(_ schema: JSONValue, _ value: JSONValue, _ valid: Bool) throws {
        let compiled = try JSONSchema(schema)
        #expect(compiled.isValid(value) == valid, "\(schema) on \(value)")
        #expect(compiled.violations(of: value).isEmpty == valid)
    }

    static let object: JSONValue = [
        "type": "object",
        "properties": [
            "value": ["type": "object", "properties": ["step": ["type": "integer", "minimum": 1]], "required": ["step"]],
            "name": ["type": "string", "maxLength": 3],
        ],
        "additionalProperties": false,
    ]

    static let violations: [(value: JSONValue, path: String, expected: String, got: String)] = [
        (["value": ["step": "x"]], "$.value.step", "integer", "string"),
        (["value": ["step": 0]], "$.value.step", "a number >= 1", "0"),
        (["value": [:]], "$.value.step", "integer", "missing"),
        (["name": "long"], "$.name", "a string of at most 3 characters", "a string of 4 characters"),
        (["extra": true], "$.extra", "no member \"extra\"", "boolean"),
        ([1], "$", "object", "array"),
    ]

    @Test("violations carry path, expected and got", arguments: violations)
    func violationsArePrecise(_ value: JSONValue, _ path: String, _ expected: String, _ got: String) throws {
        let schema = try JSONSchema(Self.object)
        do {
            try schema.validate(value)
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.path.description == path)
            #expect(error.expected == expected)
            #expect(error.got == got)
        }
    }

    @Test("messages read as sentences")
    func messagesRead() throws {
        let schema = try JSONSchema(Self.object)
        let all = schema.violations(of: ["value": [:], "extra": 1])
        #expect(all.map(\.description) == [
            #"$.value.step: missing required member "step""#,
            #"$.extra: unexpected member "extra" (allowed: value, name)"#,
        ])
    }

    @Test("an optional object reports the inner violation, not just the union")
    func optionalReportsInner() throws {
        let schema = try JSONSchema(["anyOf": [Self.object, ["type": "null"]]])
        #expect(throws: JSONSchemaViolation(path: JSONPath([.key("value"), .key("step")]), expected: "integer", got: "string")) {
            try schema.validate(["value": ["step": "x"]])
        }
        #expect(throws: JSONSchemaViolation(path: .root, expected: "object or null", got: "integer")) {
            try schema.validate(3)
        }
    }

    static let badSchemas: [JSONValue] = [
        3, ["type": "float"], ["minimum": "0"], ["required": [1]], ["anyOf": []], ["$ref": "#/$defs/missing"],
        ["pattern": "(unclosed"], ["minLength": -1],
    ]

    @Test("rejects malformed schemas", arguments: badSchemas)
    func rejectsBadSchemas(_ schema: JSONValue) {
        #expect(throws: JSONSchemaError.self) { try JSONSchema(schema) }
    }

    @Test("stops a $ref cycle that never consumes the value")
    func stopsRefCycles() throws {
        let schema = try JSONSchema(["$defs": ["a": ["$ref": "#/$defs/a"]], "$ref": "#/$defs/a"])
        #expect(!schema.isValid(1))
    }
}
