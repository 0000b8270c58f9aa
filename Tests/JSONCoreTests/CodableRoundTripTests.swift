import JSONCore
import Testing

@Suite("Codable values to JSONValue and back")
struct CodableRoundTripTests {
    @Test("a plain struct becomes an object with members in declaration order and comes back equal")
    func plainStruct() throws {
        let (json, back) = try roundTrip(Item(id: 7, title: "Milk", done: false))
        #expect(json.encodedString() == #"{"id":7,"title":"Milk","done":false}"#)
        #expect(back == Item(id: 7, title: "Milk", done: false))
    }

    @Test("every integer width, Float and Double round-trip at their bounds")
    func widths() throws {
        let extremes = Widths(i8: .min, i16: .min, i32: .min, i64: .min, u8: .max, u16: .max, u32: .max,
                              u64: UInt64(Int64.max), uint: 42, float: 1.5, double: -0.1)
        let (json, back) = try roundTrip(extremes)
        #expect(back == extremes)
        #expect(json["i8"] == -128)
        #expect(json["u32"] == 4_294_967_295)
        #expect(json["float"] == 1.5)
    }

    @Test("a UInt64 above Int64.max round-trips when a double holds it exactly")
    func hugeUnsigned() throws {
        let (json, back) = try roundTrip([UInt64(1) << 63])
        #expect(json == [.double(9_223_372_036_854_775_808.0)])
        #expect(back == [UInt64(1) << 63])
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
    }

    @Test("optionals: nil members are left out, and decode from missing or null members")
    func optionals() throws {
        let note = Note(text: "hi", author: nil, tags: ["a", "b"], scores: ["x": 1, "y": 2])
        let (json, back) = try roundTrip(note)
        #expect(json.encodedString() == #"{"text":"hi","tags":["a","b"],"scores":{"x":1,"y":2}}"#)
        #expect(back == note)
        let withNull: JSONValue = ["text": "hi", "author": nil, "tags": [], "scores": [:]]
        #expect(try JSONValueDecoder().decode(Note.self, from: withNull).author == nil)
        let withAuthor: JSONValue = ["text": "hi", "author": "ada", "tags": [], "scores": [:]]
        #expect(try JSONValueDecoder().decode(Note.self, from: withAuthor).author == "ada")
        #expect(try roundTrip(Int?.none).json == .null)
    }

    @Test("raw-value enumerations are their raw values")
    func rawEnums() throws {
        let palette = Palette(main: .green, accents: [.red, .blue], priority: .high)
        let (json, back) = try roundTrip(palette)
        #expect(json.encodedString() == #"{"main":"green","accents":["red","blue"],"priority":9}"#)
        #expect(back == palette)
    }

    @Test("enumerations with associated values are coded as Swift synthesizes them")
    func associatedValues() throws {
        let shapes: [Shape] = [.circle(radius: 2), .square(3), .point]
        let (json, back) = try roundTrip(shapes)
        #expect(json.encodedString() == #"[{"circle":{"radius":2.0}},{"square":{"_0":3.0}},{"point":{}}]"#)
        #expect(back == shapes)
    }

    @Test("nested keyed and unkeyed containers and super encoders round-trip")
    func nestedAndSuper() throws {
        let (pointJSON, point) = try roundTrip(Point3(x: 1, y: 2, z: 3, label: "p"))
        #expect(pointJSON.encodedString() == #"{"coordinates":[1,2,3],"meta":{"label":"p"}}"#)
        #expect(point == Point3(x: 1, y: 2, z: 3, label: "p"))
        let dogJSON = try JSONValueEncoder().encode(Dog(name: "Rex", goodBoy: true))
        #expect(dogJSON.encodedString() == #"{"goodBoy":true,"super":{"name":"Rex"}}"#)
        let dog = try JSONValueDecoder().decode(Dog.self, from: dogJSON)
        #expect(dog.name == "Rex" && dog.goodBoy)
    }

    @Test("recursive values and dictionaries of arrays round-trip")
    func recursive() throws {
        let tree = TreeNode(name: "root", children: [TreeNode(name: "leaf", children: [])])
        #expect(try roundTrip(tree).back == tree)
        let groups: [String: [Item]] = ["a": [Item(id: 1, title: "x", done: true)], "b": []]
        #expect(try roundTrip(groups).back == groups)
    }

    @Test("integral doubles decode as integers, as the hand-written Int does")
    func integralDoubles() throws {
        #expect(try JSONValueDecoder().decode(Int8.self, from: .double(3)) == 3)
        #expect(try JSONValueDecoder().decode(Item.self, from: ["id": 2.0, "title": "t", "done": true]).id == 2)
    }

    @Test("non-finite numbers cannot be encoded")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Double.nan) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["x": Float.infinity]) }
    }

    @Test("a key written again keeps its first place and takes the last value, nested or not")
    func rewrittenKeys() throws {
        let json = try JSONValueEncoder().encode(Rewriter())
        #expect(json.encodedString() == #"{"a":3,"b":{"inner":true},"c":[1],"d":4,"e":5,"f":6,"g":"seven"}"#)
    }

    @Test("a value written over a container, and a container over a value, leave only the last")
    func replacedContent() throws {
        #expect(try JSONValueEncoder().encode(ValueOverContainer()) == .integer(1))
        #expect(try JSONValueEncoder().encode(ContainerOverValue()) == ["k": true])
    }

    @Test("a type that is also JSONConvertible is coded with its hand-written form, also as a member")
    func convertibleWins() throws {
        struct Holder: Codable { var tagged: Tagged }
        let json = try JSONValueEncoder().encode(Holder(tagged: Tagged(name: "x")))
        #expect(json == ["tagged": ["hand": "x"]])
        #expect(try JSONValueDecoder().decode(Holder.self, from: json).tagged.name == "x")
    }
}

/// Codable by synthesis and JSONConvertible by hand, with different forms, so tests can
/// tell which one was used.
struct Tagged: Codable, JSONConvertible, Equatable, Sendable {
    var name: String

    init(name: String) { self.name = name }

    init(json: JSONValue) throws(JSONDecodingError) {
        name = try JSONObjectDecoder(json).decode("hand")
    }

    var jsonValue: JSONValue { ["hand": .string(name)] }

    static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["hand": String.jsonSchema], required: ["hand"]) }
}

/// Writes some keys more than once, as a scalar, a nested container or a generic value, and
/// more members than a node first makes room for.
private struct Rewriter: Encodable {
    private enum Key: String, CodingKey { case a, b, c, d, e, f, g, inner }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: .a)
        try container.encode("gone", forKey: .b)
        try container.encode(2, forKey: .a)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .b)
        try nested.encode(true, forKey: .inner)
        try container.encode([0], forKey: .c)
        try container.encode(Optional(4), forKey: .d)
        try container.encode(5, forKey: .e)
        try container.encode(6, forKey: .f)
        try container.encode("seven", forKey: .g)
        try container.encode(3, forKey: .a)
        var elements = container.nestedUnkeyedContainer(forKey: .c)
        try elements.encode(1)
    }
}

/// Opens a keyed container, then writes a single value over it.
private struct ValueOverContainer: Encodable {
    private enum Key: String, CodingKey { case k }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(false, forKey: .k)
        var single = encoder.singleValueContainer()
        try single.encode(1)
    }
}

/// Writes a single value, then opens a keyed container over it.
private struct ContainerOverValue: Encodable {
    private enum Key: String, CodingKey { case k }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(true, forKey: .k)
    }
}
