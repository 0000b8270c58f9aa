import JSONCore
import Testing
@testable import ViewModelCatalog

/// TodoItem's reader (TodoItem+JSONReading.swift) against the general path on the same bytes:
/// parse, check `jsonSchema`, `init(json:)`. What the reader accepts, the general path accepts
/// as the same item; what it declines is left to the general path.
@Suite("TodoItem read from bytes: the same items as the general path, or none")
struct TodoItemReadingTests {
    /// Where a sent value sits in its frame (params' `value`).
    static let depth = 2

    static func general(_ bytes: [UInt8], maxDepth: Int = 512) -> TodoItem? {
        bytes.withUnsafeBytes { raw -> TodoItem? in
            guard let (value, end) = try? JSONParser.parseMember(
                in: raw, at: 0, depth: depth, options: JSONParseOptions(maxDepth: maxDepth)) else { return nil }
            guard raw[end...].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
            guard let schema = try? JSONSchema(TodoItem.jsonSchema), (try? schema.validate(value)) != nil else { return nil }
            return try? TodoItem(json: value)
        }
    }

    static func fast(_ bytes: [UInt8], maxDepth: Int = 512) -> TodoItem? {
        bytes.withUnsafeBufferPointer { buffer -> TodoItem? in
            try? JSONByteReader.readWhole(buffer, depth: depth, maxDepth: maxDepth) { reader throws(JSONDecodingError) in
                try TodoItem(reading: &reader)
            }
        }
    }

    /// Every combination of these member texts, in two orders, with and without an extra or
    /// repeated member: valid items, each kind of wrong type, escapes, non-ASCII, huge numbers.
    static var objects: [String] {
        let ids = ["1", "-42", "0", "123456789012345678", "1234567890123456789", "99999999999999999999", "1.0", "1e2",
                   "-0", "01", #""1""#, "null", "true", "[1]", "{}"]
        let titles = [#""""#, #""Buy milk""#, #""café 日本 😀""#, #""a\"b""#, #""\u00e9""#, #""x\ny""#, "1", "null",
                      #"["t"]"#, "false", "\"tab\there\""]
        let dones = ["true", "false", "null", "0", #""true""#, "tru", "{}", nil]
        var texts: [String] = []
        for id in ids {
            for title in titles {
                for done in dones {
                    var members = [#""id":\#(id)"#, #""title":\#(title)"#]
                    if let done { members.append(#""done":\#(done)"#) }
                    texts.append("{" + members.joined(separator: ",") + "}")
                    texts.append(" { " + members.reversed().joined(separator: " , ") + " } ")
                }
            }
        }
        for tail in [#","extra":1"#, #","id":2"#, #","title":"u""#, #","done":false"#, #","\u0069d":3"#, ",", #","":0"#] {
            texts.append(#"{"id":1,"title":"t","done":true"# + tail + "}")
        }
        texts += ["{}", "[]", "null", #"{"id":1,"title":"t","done":true"#, #"{"id":1,"title":"t","done":true}}"#,
                  #"{"id":1 "title":"t","done":true}"#, #"{"id":1,"title":"t","done":true} x"#, #"{"id"1,"title":"t","done":true}"#]
        return texts
    }

    @Test("on every input the reader either declines or reads what the general path reads")
    func agreesWithTheGeneralPath() {
        var read = 0
        for text in Self.objects {
            let bytes = Array(text.utf8)
            guard let item = Self.fast(bytes) else { continue }
            read += 1
            #expect(Self.general(bytes) == item, "\(text)")
        }
        // 4 ids x 3 titles x 2 dones x 2 orders are plain: the reader takes them itself.
        #expect(read == 48)
    }

    @Test("plain items are read, in any order and with any whitespace")
    func plainItems() {
        #expect(Self.fast(Array(#"{"id":1,"title":"Buy milk","done":false}"#.utf8)) == TodoItem(id: 1, title: "Buy milk"))
        #expect(Self.fast(Array("\n{\t\"done\" :true,\r\"title\": \"é\" ,\"id\":-3 }\n".utf8)) == TodoItem(id: -3, title: "é", done: true))
    }

    @Test("what the general path refuses, or where the reader has any doubt, it declines", arguments: [
        #"{"id":1,"title":"t"}"#, #"{"id":1,"title":"t","done":true,"extra":0}"#, #"{"id":1,"title":"t","done":true,"id":2}"#,
        #"{"id":1,"title":"a\"b","done":true}"#, #"{"id":1.0,"title":"t","done":true}"#, #"{"id":"1","title":"t","done":true}"#,
        #"{"id":1,"title":null,"done":true}"#, #"{"id":1,"title":"t","done":null}"#, #"{"id":1,"title":"t","done":true,}"#,
    ])
    func declines(text: String) {
        #expect(Self.fast(Array(text.utf8)) == nil)
    }

    @Test("invalid UTF-8 in a title, or in a member name, is declined and refused by the general path")
    func invalidUTF8() {
        let title = Array(#"{"id":1,"title":""#.utf8) + [0xC3, 0x28] + Array(#"","done":true}"#.utf8)
        let name = Array(#"{"id":1,"title":"t","done":true,""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)
        for bytes in [title, name] {
            #expect(Self.fast(bytes) == nil)
            #expect(Self.general(bytes) == nil)
        }
    }

    @Test("the record needs one level below the value: at a maxDepth without it, both refuse")
    func depth() {
        let bytes = Array(#"{"id":1,"title":"t","done":true}"#.utf8)
        #expect(Self.fast(bytes, maxDepth: 3) == TodoItem(id: 1, title: "t", done: true))
        #expect(Self.fast(bytes, maxDepth: 2) == nil)
        #expect(Self.general(bytes, maxDepth: 2) == nil)
    }
}
