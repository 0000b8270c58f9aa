import JSONCore
import Synchronization
import Testing

/// How many times `Counted`'s `init(from:)` ran (the schema cache must derive once).
private let countedDecodes = Mutex(0)

private struct Counted: Decodable {
    var value: Int

    init(from decoder: any Decoder) throws {
        countedDecodes.withLock { $0 += 1 }
        value = try decoder.singleValueContainer().decode(Int.self)
    }
}

/// A raw-value enumeration that cannot list its cases, with a member after it.
private struct MoodyNote: Codable {
    var text: String
    var mood: Mood
    var after: Int
}

/// An enumeration with associated values as a struct member, below a dictionary.
private struct Canvas: Codable {
    struct Stroke: Codable { var shape: Shape; var width: Int }
    var strokes: [String: Stroke]
}

/// A member with its own schema, and an optional enumeration.
private struct Reading: Codable {
    var done: Percent
    var color: Color?
}

@Suite("JSON Schemas derived from Decodable types")
struct DerivedSchemaTests {
    private func schema<T: Decodable>(_ type: T.Type) -> String {
        JSONSchemaBuilder.schema(for: T.self).encodedString()
    }

    @Test("a struct is a closed object with its members required in declaration order")
    func plainStruct() {
        #expect(schema(Item.self) == """
        {"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"done":{"type":"boolean"}},\
        "required":["id","title","done"],"additionalProperties":false}
        """)
    }

    @Test("optionals are nullable and not required, arrays have items, dictionaries additionalProperties")
    func collections() {
        #expect(schema(Note.self) == """
        {"type":"object","properties":{"text":{"type":"string"},"author":{"type":["string","null"]},\
        "tags":{"type":"array","items":{"type":"string"}},"scores":{"type":"object","additionalProperties":{"type":"integer"}}},\
        "required":["text","tags","scores"],"additionalProperties":false}
        """)
        #expect(schema([Item?].self) == """
        {"type":"array","items":{"type":["object","null"],"properties":{"id":{"type":"integer"},"title":{"type":"string"},\
        "done":{"type":"boolean"}},"required":["id","title","done"],"additionalProperties":false}}
        """)
    }

    @Test("integers narrower than 64 bits carry their bounds, unsigned ones a minimum")
    func integerWidths() throws {
        let properties = try #require(JSONSchemaBuilder.schema(for: Widths.self)["properties"])
        #expect(properties["i64"] == ["type": "integer"])
        #expect(properties["i8"] == ["type": "integer", "minimum": -128, "maximum": 127])
        #expect(properties["u16"] == ["type": "integer", "minimum": 0, "maximum": 65535])
        #expect(properties["i32"] == ["type": "integer", "minimum": -2_147_483_648, "maximum": 2_147_483_647])
        #expect(properties["u64"] == ["type": "integer", "minimum": 0])
        #expect(properties["float"] == ["type": "number"])
    }

    @Test("CaseIterable raw-value enumerations list their cases")
    func enumerations() {
        #expect(schema(Palette.self) == """
        {"type":"object","properties":{"main":{"type":"string","enum":["red","green","blue"]},\
        "accents":{"type":"array","items":{"type":"string","enum":["red","green","blue"]}},\
        "priority":{"type":"integer","enum":[1,9]}},"required":["main","accents","priority"],"additionalProperties":false}
        """)
    }

    @Test("JSONSchemaProviding and JSONConvertible members give their own schemas")
    func givenSchemas() {
        #expect(schema(Reading.self) == """
        {"type":"object","properties":{"done":{"type":"integer","minimum":0,"maximum":100},"color":{"type":["string","null"],\
        "enum":["red","green","blue",null]}},"required":["done"],"additionalProperties":false}
        """)
        #expect(JSONSchemaBuilder.schema(for: Tagged.self) == Tagged.jsonSchema)
    }

    @Test("recursion refers back to the root, or to $defs below it")
    func recursion() {
        #expect(schema(TreeNode.self) == """
        {"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},\
        "required":["name","children"],"additionalProperties":false}
        """)
        #expect(schema(Forest.self) == """
        {"type":"object","properties":{"trees":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["trees"],\
        "additionalProperties":false,"$defs":{"TreeNode":{"type":"object","properties":{"name":{"type":"string"},\
        "children":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["name","children"],"additionalProperties":false}}}
        """)
    }

    @Test("a struct member whose type cannot be described is named with its path, never published as a schema that lies")
    func undescribable() {
        #expect(JSONSchemaBuilder.derivationProblem(in: JSONSchemaBuilder.schema(for: MoodyNote.self)) == """
        MoodyNote.mood (Mood): an enumeration with raw values that is not CaseIterable: its cases cannot be listed. \
        Conform Mood to CaseIterable (or state its schema with JSONSchemaProviding).
        """)
        #expect(JSONSchemaBuilder.derivationProblem(in: JSONSchemaBuilder.schema(for: Canvas.self)) == """
        Canvas.strokes[].shape (Shape): decodes keys that cannot be listed (an enumeration with associated values). \
        State its schema with JSONSchemaProviding.
        """)
        // Where nothing follows them, they are what they read: loose, but true.
        #expect(schema(Mood.self) == #"{"type":"string"}"#)
        #expect(schema(Shape.self) == #"{"type":"object","properties":{}}"#)
        #expect(JSONSchemaBuilder.derivationProblem(in: JSONSchemaBuilder.schema(for: Progress.self)) == nil, "optional")
        #expect(JSONSchemaBuilder.derivationProblem(in: JSONSchemaBuilder.schema(for: [Shape].self)) == nil, "elements")
    }

    @Test("nested containers and super decoders are described as they are read")
    func handWrittenContainers() {
        #expect(schema(Point3.self) == """
        {"type":"object","properties":{"coordinates":{"type":"array","items":{"type":"integer"}},\
        "meta":{"type":"object","properties":{"label":{"type":"string"}},"required":["label"],"additionalProperties":false}},\
        "required":["coordinates","meta"],"additionalProperties":false}
        """)
        #expect(schema(Dog.self) == """
        {"type":"object","properties":{"goodBoy":{"type":"boolean"},"super":{"type":"object","properties":{"name":{"type":"string"}},\
        "required":["name"],"additionalProperties":false}},"required":["goodBoy","super"],"additionalProperties":false}
        """)
    }

    @Test("the validator accepts every derived schema, passes encoded values and rejects bad ones with their path")
    func validatorAcceptsDerivedSchemas() throws {
        func check<T: Codable>(_ value: T, bad: JSONValue, at path: JSONPath) throws {
            let compiled = try JSONSchema(JSONSchemaBuilder.schema(for: T.self))
            try compiled.validate(try JSONValueEncoder().encode(value))
            let violation = compiled.violations(of: bad).first
            #expect(violation?.path == path, "\(T.self): \(String(describing: violation))")
        }
        try check(Item(id: 1, title: "t", done: true), bad: ["id": 1, "title": "t", "done": true, "extra": 1], at: JSONPath([.key("extra")]))
        try check(Note(text: "t", author: nil, tags: ["a"], scores: ["x": 1]), bad: ["text": "t", "tags": [], "scores": ["x": "1"]], at: JSONPath([.key("scores"), .key("x")]))
        try check(Palette(main: .red, accents: [.blue], priority: .low), bad: ["main": "red", "accents": ["pink"], "priority": 1], at: JSONPath([.key("accents"), .index(0)]))
        try check(Forest(trees: [TreeNode(name: "a", children: [TreeNode(name: "b", children: [])])]),
                  bad: ["trees": [["name": "a", "children": [["name": 3, "children": []]]]]], at: JSONPath([.key("trees"), .index(0), .key("children"), .index(0), .key("name")]))
        try check(Progress(done: Percent(50), mood: .calm), bad: ["done": 101], at: JSONPath([.key("done")]))
        try check(Widths(i8: 0, i16: 0, i32: 0, i64: 0, u8: 0, u16: 0, u32: 0, u64: 0, uint: 0, float: 0, double: 0),
                  bad: ["i8": 128, "i16": 0, "i32": 0, "i64": 0, "u8": 0, "u16": 0, "u32": 0, "u64": 0, "uint": 0, "float": 0, "double": 0],
                  at: JSONPath([.key("i8")]))
    }

    @Test("each type's schema is derived once and then served from the cache")
    func derivedOnce() {
        let before = countedDecodes.withLock { $0 }
        let first = JSONSchemaBuilder.schema(for: [Counted].self)
        let afterFirst = countedDecodes.withLock { $0 }
        let second = JSONSchemaBuilder.schema(for: [Counted].self)
        #expect(first == second)
        #expect(afterFirst > before)
        #expect(countedDecodes.withLock { $0 } == afterFirst)
    }
}
