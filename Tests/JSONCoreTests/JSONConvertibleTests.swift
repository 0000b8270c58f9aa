import JSONCore
import Testing

/// A user-style struct, conformed the way the documentation suggests.
struct Step: JSONConvertible, Equatable {
    var step: Int
    var label: String?
    var tags: [String]

    init(step: Int, label: String?, tags: [String]) {
        self.step = step
        self.label = label
        self.tags = tags
    }

    init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        step = try members.decode("step")
        label = try members.decode("label")
        tags = try members.decode("tags", default: [])
    }

    var jsonValue: JSONValue {
        var object = JSONObject()
        object.encode("step", step)
        object.encodeIfPresent("label", label)
        object.encode("tags", tags)
        return .object(object)
    }

    static var jsonSchema: JSONValue {
        JSONSchemaBuilder.object(
            ["step": Int.jsonSchema, "label": String.jsonSchema, "tags": [String].jsonSchema], required: ["step"])
    }
}

struct Envelope: JSONConvertible, Equatable {
    var value: Step

    init(json: JSONValue) throws(JSONDecodingError) {
        value = try JSONObjectDecoder(json).decode("value")
    }
    var jsonValue: JSONValue { ["value": value.jsonValue] }
    static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["value": Step.jsonSchema], required: ["value"]) }
}

@Suite("JSONConvertible")
struct JSONConvertibleTests {
    static let failures: [(json: JSONValue, path: String, expected: String, got: String)] = [
        (["value": ["step": "x"]], "$.value.step", "integer", "string"),
        (["value": [:]], "$.value.step", "integer", "missing"),
        (["value": ["step": 1.5]], "$.value.step", "integer", "number 1.5"),
        (["value": ["step": 1, "label": 3]], "$.value.label", "string or null", "integer"),
        (["value": ["step": 1, "tags": ["a", 2]]], "$.value.tags[1]", "string", "integer"),
        (["value": 7], "$.value", "object", "integer"),
        ([], "$", "object", "array"),
        ([:], "$.value", "object", "missing"),
    ]

    @Test("decoding errors name the exact path, the expected and the found type", arguments: failures)
    func decodingErrorsArePrecise(_ json: JSONValue, _ path: String, _ expected: String, _ got: String) {
        do {
            let decoded = try Envelope(json: json)
            Issue.record("decoded \(decoded)")
        } catch {
            #expect(error.path.description == path)
            #expect(error.expected == expected)
            #expect(error.got == got)
        }
    }

    @Test("decodes and encodes a struct, leaving out nil members")
    func roundTripsStruct() throws {
        let json: JSONValue = ["value": ["step": 2, "tags": ["x"]]]
        let envelope = try Envelope(json: json)
        #expect(envelope.value == Step(step: 2, label: nil, tags: ["x"]))
        #expect(envelope.jsonValue.encodedString() == #"{"value":{"step":2,"tags":["x"]}}"#)
    }

    @Test("standard types decode and describe themselves")
    func standardTypes() throws {
        #expect(try Int(json: 3) == 3)
        #expect(try Int(json: .double(3.0)) == 3)
        #expect(try Double(json: 3) == 3.0)
        #expect(try Bool(json: true))
        #expect(try [String: Int](json: ["b": 2, "a": 1]).jsonValue.encodedString() == #"{"a":1,"b":2}"#)
        #expect(try Int?(json: nil) == nil)
        #expect(Int?.jsonSchema == ["type": ["integer", "null"]])
        #expect(Step?.jsonSchema == ["type": ["object", "null"], "properties": Step.jsonSchema["properties"] ?? nil,
                                     "required": ["step"], "additionalProperties": false])
        #expect([Int].jsonSchema == ["type": "array", "items": ["type": "integer"]])
        #expect(JSONValue.jsonSchema == [:])
        #expect(throws: JSONDecodingError(path: JSONPath([.key("x")]), expected: "integer", got: "string")) {
            try [String: Int](json: ["x": "no"])
        }
    }

    @Test("paths spell odd keys with brackets")
    func pathSpelling() {
        let path = JSONPath([.key("value"), .key("a b"), .index(3), .key("_ok$")])
        #expect(path.description == #"$.value["a b"][3]._ok$"#)
    }

    @Test("rejects unknown members on request")
    func rejectsUnknownMembers() throws {
        let members = try JSONObjectDecoder(["a": 1, "zz": 2])
        #expect(throws: JSONDecodingError.self) { try members.rejectUnknownMembers(allowed: ["a"]) }
        try members.rejectUnknownMembers(allowed: ["a", "zz"])
    }

    @Test("a list of allowed members refuses exactly as a set of them does")
    func rejectsUnknownMembersFromAList() throws {
        let members = try JSONObjectDecoder(["a": 1, "zz": 2, "b": 3])
        for allowed in [["a"], ["zz", "a"], [], ["b", "a", "c"]] {
            var fromList: JSONDecodingError?
            var fromSet: JSONDecodingError?
            do { try members.rejectUnknownMembers(allowed: allowed) } catch { fromList = error }
            do { try members.rejectUnknownMembers(allowed: Set(allowed)) } catch { fromSet = error }
            #expect(fromList != nil)
            #expect(fromList == fromSet)
        }
        #expect(throws: Never.self) { try members.rejectUnknownMembers(allowed: ["b", "zz", "a"]) }
    }

    @Test("a struct's schema accepts its own encodings")
    func schemaAcceptsEncodings() throws {
        let schema = try JSONSchema(Envelope.jsonSchema)
        let sample = Envelope(step: Step(step: 1, label: "one", tags: ["t"]))
        #expect(schema.isValid(sample.jsonValue))
        #expect(schema.isValid(Envelope(step: Step(step: 1, label: nil, tags: [])).jsonValue))
        #expect(!schema.isValid(["value": ["step": "x"]]))
    }
}

extension Envelope {
    init(step: Step) { value = step }
}
