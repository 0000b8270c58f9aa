import JSONCore
import Testing

@Suite("Serialization and round trips")
struct RoundTripTests {
    static let documents: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"counter-1","input":"increment","value":null}}"#,
        #"[1,-2,3.5,"x",true,false,null,[],{},{"a":[{"b":"c"}]}]"#,
        #""line\nbreak \"quoted\" back\\slash tab\t \u0001 é 😀""#,
        #"{"z":1,"a":2,"m":3}"#,
    ]

    @Test("re-encodes canonical documents byte for byte", arguments: documents)
    func reencodesByteForByte(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(value.encodedString() == text)
        #expect(try JSONValue(parsing: value.encodedBytes()) == value)
    }

    @Test("keeps object members in insertion order")
    func keepsInsertionOrder() {
        var object = JSONObject()
        object["zeta"] = 1
        object["alpha"] = 2
        object["mid"] = 3
        object["zeta"] = 4
        #expect(JSONValue.object(object).encodedString() == #"{"zeta":4,"alpha":2,"mid":3}"#)
        object["alpha"] = nil
        #expect(object.keys == ["zeta", "mid"])
    }

    @Test("escapes what JSON requires and nothing else")
    func escapesMinimally() {
        let value = JSONValue.string("a\"b\\c\u{8}\u{C}\n\r\t\u{1}\u{1F}/é\u{2028}")
        #expect(value.encodedString() == #""a\"b\\c\b\f\n\r\t\u0001\u001f/é"# + "\u{2028}\"")
    }

    @Test("decodes escapes and surrogate pairs")
    func decodesEscapes() throws {
        let value = try JSONValue(parsing: #""\u00e9\u20AC\ud83d\ude00\u0000\/""#)
        #expect(value == .string("é€😀\u{0}/"))
    }

    @Test("compares objects without regard to order")
    func objectEqualityIgnoresOrder() {
        let a: JSONValue = ["x": 1, "y": [true, nil]]
        let b: JSONValue = ["y": [true, nil], "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != ["x": 1, "y": [true]])
    }

    @Test("large objects look keys up through the index and stay ordered")
    func largeObjects() throws {
        var object = JSONObject()
        for number in 0..<100 { object["k\(number)"] = .integer(Int64(number)) }
        #expect(object["k73"] == 73)
        object["k10"] = nil
        #expect(object["k11"] == 11)
        #expect(object["k10"] == nil)
        #expect(object.count == 99)
        #expect(object.keys.first == "k0" && object.keys.last == "k99")
        let text = JSONValue.object(object).encodedString()
        #expect(try JSONValue(parsing: text) == .object(object))
    }

    @Test("duplicate keys: last value wins at the first position, or rejection on request")
    func duplicateKeys() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        #expect(try JSONValue(parsing: text).encodedString() == #"{"a":3,"b":2}"#)
        #expect(throws: JSONParseError(.duplicateKey, #"duplicate object key "a""#, at: 13)) {
            try JSONValue(parsing: text, options: JSONParseOptions(duplicateKeys: .reject))
        }
    }

    @Test("finds repeated keys in large objects too")
    func duplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = "{" + members + #","k3":"again","k39":[]}"#
        let value = try JSONValue(parsing: text)
        #expect(value.objectValue?.count == 40)
        #expect(value["k3"] == "again")
        #expect(value["k39"] == [])
        #expect(value.objectValue?.keys.last == "k39")
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text, options: JSONParseOptions(duplicateKeys: .reject)) }
    }

    @Test("pretty-prints with two-space indentation")
    func prettyPrints() throws {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": [], "d": ["e": nil]]
        #expect(value.prettyPrinted() == """
        {
          "a": [
            1,
            2
          ],
          "b": {},
          "c": [],
          "d": {
            "e": null
          }
        }
        """)
        #expect(try JSONValue(parsing: value.prettyPrinted()) == value)
    }

    @Test("description is compact JSON")
    func descriptionIsCompactJSON() {
        let value: JSONValue = ["a": "b", "n": 1.5]
        #expect("\(value)" == #"{"a":"b","n":1.5}"#)
    }

    @Test("the object writer splices pre-encoded values verbatim")
    func objectWriterSplices() {
        let encoded = JSONValue(["deep": [1, 2]]).encodedBytes()
        var buffer = Array("prefix ".utf8)
        JSONObjectWriter.append(to: &buffer) { writer in
            writer.member("s", string: "x\"y")
            writer.rawMember("value", encoded[...])
            writer.member("seq", integer: 7)
            writer.member("ok", bool: true)
            writer.objectMember("nested") { inner in inner.member("n", .null) }
        }
        #expect(String(decoding: buffer, as: UTF8.self)
            == #"prefix {"s":"x\"y","value":{"deep":[1,2]},"seq":7,"ok":true,"nested":{"n":null}}"#)
    }
}

extension JSONValue {
    init(_ object: JSONObject) { self = .object(object) }
}
