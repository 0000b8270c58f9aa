import JSONCore
import Testing

@Suite("The schema type test")
struct JSONSchemaTypeCheckTests {
    static let values: [JSONValue] = [
        .null, true, false, 0, -3, 2.0, 2.5, -0.0, 1e300, "", "x", [], [1], [:], ["a": 1],
    ]

    @Test("answers exactly what the interpreter answers for schemas that only name types", arguments: [
        #"{}"#, #"true"#, #"{"type":"integer"}"#, #"{"type":"number"}"#, #"{"type":"string"}"#,
        #"{"type":"boolean"}"#, #"{"type":"null"}"#, #"{"type":"array"}"#, #"{"type":"object"}"#,
        #"{"type":["integer","null"],"description":"A step.","default":1}"#,
        #"{"type":["string","number"],"title":"t","examples":[1],"$comment":"c"}"#,
    ])
    func agreesWithInterpreter(document: String) throws {
        let schema = try JSONSchema(JSONValue(parsing: document))
        let check = try #require(JSONSchemaTypeCheck(schema))
        for value in Self.values {
            #expect(check.admits(value) == schema.isValid(value), "\(value) against \(document)")
        }
    }

    @Test("declines schemas that check more than the type", arguments: [
        #"false"#, #"{"type":"integer","minimum":0}"#, #"{"type":"string","maxLength":3}"#,
        #"{"enum":[1,2]}"#, #"{"const":1}"#, #"{"type":"string","pattern":"a"}"#,
        #"{"type":"object","properties":{"a":{}}}"#, #"{"required":["a"]}"#,
        #"{"type":"array","items":{"type":"integer"}}"#, #"{"anyOf":[{"type":"integer"}]}"#,
        #"{"not":{"type":"null"}}"#, #"{"type":"number","multipleOf":2}"#, ##"{"$ref":"#"}"##,
    ])
    func declinesRicherSchemas(document: String) throws {
        let schema = try JSONSchema(JSONValue(parsing: document))
        #expect(JSONSchemaTypeCheck(schema) == nil)
    }
}
