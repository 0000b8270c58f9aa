import JSONCore
import Testing

@Suite("The compiled schema check")
struct JSONSchemaShapeCheckTests {
    static let values: [JSONValue] = [
        .null, true, false, 0, -3, 2.0, 2.5, -0.0, 1e300, "", "x", [], [1], [1, "a"], [:], ["a": 1],
        ["id": 1, "title": "t", "done": false], ["id": 1, "title": "t"], ["id": 1.5, "title": "t", "done": true],
        ["id": 1, "title": "t", "done": false, "extra": 0], ["title": "t", "done": false, "id": 2.0],
        ["id": "1", "title": "t", "done": false], ["id": 1, "title": .null, "done": false],
        [["id": 1, "title": "t", "done": true]], [["id": 1]], ["a": [1, 2]], ["a": ["b": "c"]], ["b": 2],
    ]

    static let record = #"{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"done":{"type":"boolean"}},"required":["id","title","done"],"additionalProperties":false}"#

    @Test("answers exactly what the interpreter answers for every schema it compiles", arguments: [
        #"{}"#, #"true"#, #"false"#, #"{"type":"integer"}"#, #"{"type":"number"}"#, #"{"type":"string"}"#,
        #"{"type":"boolean"}"#, #"{"type":"null"}"#, #"{"type":"array"}"#, #"{"type":"object"}"#,
        #"{"type":["integer","null"],"description":"A step.","default":1}"#,
        #"{"type":["string","number"],"title":"t","examples":[1],"$comment":"c"}"#,
        #"{"enum":[1,2,"x"]}"#, #"{"const":1}"#, #"{"type":"integer","enum":[0,1]}"#,
        #"{"type":"object","properties":{"a":{}}}"#, #"{"properties":{"a":{"type":"integer"}}}"#,
        #"{"type":"array","items":{"type":"integer"}}"#, #"{"items":false}"#,
        record, "{\"type\":\"array\",\"items\":\(record)}",
        #"{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}"#,
        #"{"type":"object","additionalProperties":{"type":"array","items":{"type":"integer"}}}"#,
        #"{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"const":"c"}},"required":["b"]}},"additionalProperties":false}"#,
    ])
    func agreesWithInterpreter(document: String) throws {
        let schema = try JSONSchema(JSONValue(parsing: document))
        let check = try #require(JSONSchemaShapeCheck(schema))
        for value in Self.values {
            #expect(check.admits(value) == schema.isValid(value), "\(value) against \(document)")
        }
    }

    @Test("declines schemas with a keyword it does not compile, anywhere inside", arguments: [
        #"{"type":"integer","minimum":0}"#, #"{"type":"string","maxLength":3}"#,
        #"{"type":"string","pattern":"a"}"#, #"{"required":["a"]}"#,
        #"{"anyOf":[{"type":"integer"}]}"#, #"{"not":{"type":"null"}}"#,
        #"{"type":"number","multipleOf":2}"#, ##"{"$ref":"#"}"##,
        #"{"type":"object","properties":{"a":{"type":"integer","minimum":0}}}"#,
        #"{"type":"array","items":{"anyOf":[{"type":"integer"}]}}"#,
        #"{"type":"object","additionalProperties":{"type":"string","minLength":1}}"#,
    ])
    func declinesRicherSchemas(document: String) throws {
        let schema = try JSONSchema(JSONValue(parsing: document))
        #expect(JSONSchemaShapeCheck(schema) == nil)
    }
}
