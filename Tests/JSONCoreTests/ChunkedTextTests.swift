import JSONCore
import Testing

/// The serializer writes through a fixed stack chunk (JSONTextScratch.swift) and the parser's
/// stacks start in lent memory (ParseStack.swift): what crosses those sizes must come out as
/// what stays inside them does.
@Suite("Text longer than the serializer's chunk, containers larger than the parser's lent stacks")
struct ChunkedTextTests {
    /// JSON's two-character escapes (RFC 8259 §7) that the serializer writes.
    static let shortEscapes: [Unicode.Scalar: String] = [
        "\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#, "\u{8}": #"\b"#, "\u{C}": #"\f"#,
    ]

    /// JSON's escaping, written out per scalar as the format states it (the oracle).
    static func quoted(_ text: String) -> String {
        let escaped = text.unicodeScalars.map { scalar -> String in
            if let short = shortEscapes[scalar] { return short }
            guard scalar.value < 0x20 else { return String(scalar) }
            let digits = String(scalar.value, radix: 16)
            return #"\u00"# + String(repeating: "0", count: 2 - digits.count) + digits
        }
        return "\"" + escaped.joined() + "\""
    }

    /// Every ASCII byte, then two multi-byte scalars, repeated: escapes fall on every offset
    /// of the serializer's pieces and chunks.
    static let longText: String = {
        var text = ""
        for round in 0..<40 {
            for value in 0..<0x80 where (value + round) % 3 != 0 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8(value)))
            }
            text += "é😀"
        }
        return text
    }()

    @Test("a string thousands of bytes long is escaped as each of its characters is")
    func longStringsEscapeLikeShortOnes() throws {
        #expect(Self.longText.utf8.count > 3_000)
        let expected = Self.quoted(Self.longText)
        #expect(JSONValue.string(Self.longText).encodedString() == expected)
        var buffer = Array("prefix ".utf8)
        JSONSerializer.appendString(Self.longText, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "prefix " + expected)
        #expect(try JSONValue(parsing: expected) == .string(Self.longText))
    }

    @Test("a value whose text spans many chunks is its parts' texts joined")
    func longValuesAreTheirPartsJoined() throws {
        let elements: [JSONValue] = (0..<300).map { index in
            let number = JSONValue.integer(Int64(index) * -1_234_567_891)
            let escaped = JSONValue.string(String(repeating: "\"x\\", count: index % 7))
            let pair: [JSONValue] = [.integer(Int64(index)), .string("é")]
            var object = JSONObject()
            object["key \(index)"] = escaped
            object["n"] = number
            object["d"] = .double(Double(index) / 8)
            object["b"] = .bool(index % 2 == 0)
            object["z"] = .null
            object["a"] = .array(pair)
            return .object(object)
        }
        let joined = "[" + elements.map { $0.encodedString() }.joined(separator: ",") + "]"
        let whole = JSONValue.array(elements)
        #expect(joined.utf8.count > 20_000)
        #expect(whole.encodedString() == joined)
        var buffer = Array("{\"list\":".utf8)
        JSONSerializer.append(whole, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "{\"list\":" + joined)
        #expect(try JSONValue(parsing: joined) == whole)
    }

    @Test("keys of different bytes that Swift calls equal stay one key (the Kelvin sign and K)")
    func canonicallyEqualKeysAreOneKey() throws {
        // The parser compares ASCII keys by length first; a non-ASCII key must still be
        // compared in full, as String equality (canonical equivalence) does.
        let text = "{\"a\":0,\"K\":1,\"\u{212A}\":2}"
        let value = try JSONValue(parsing: text)
        #expect(value.encodedString() == #"{"a":0,"K":2}"#)
        #expect(throws: JSONParseError(.duplicateKey, #"duplicate object key "\#u{212A}""#, at: 13)) {
            try JSONValue(parsing: text, options: JSONParseOptions(duplicateKeys: .reject))
        }
        #expect(try JSONValue(parsing: #"{"id":1,"ab":2,"cd":3,"ab":4}"#) == .object(["id": 1, "ab": 4, "cd": 3]))
    }

    @Test("objects and arrays larger than the lent stacks parse whole, nested too; a cut document fails")
    func largeContainersParseWhole() throws {
        var members: [(String, JSONValue)] = []
        for index in 0..<20 {
            let elements = (0..<12).map { JSONValue.integer(Int64(index * 100 + $0)) }
            members.append(("m\(index)", .array(elements + [.object(["inner": .array(elements)])])))
        }
        let value = JSONValue.object(JSONObject(members))
        let text = value.encodedString()
        #expect(try JSONValue(parsing: text) == value)
        let cut = Array(text.utf8.dropLast(40))
        #expect {
            try JSONValue(parsing: cut)
        } throws: { error in
            (error as? JSONParseError)?.kind == .unexpectedEnd
        }
    }
}
