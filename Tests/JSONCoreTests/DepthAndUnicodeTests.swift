import JSONCore
import Testing

@Suite("Nesting limits and Unicode")
struct DepthAndUnicodeTests {
    func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test("accepts nesting up to the maximum depth and rejects one more")
    func enforcesMaxDepth() throws {
        let options = JSONParseOptions(maxDepth: 64)
        _ = try JSONValue(parsing: nested(64), options: options)
        do {
            _ = try JSONValue(parsing: nested(65), options: options)
            Issue.record("accepted depth 65")
        } catch {
            #expect(error.kind == .tooDeep)
            #expect(error.offset == 64)
            #expect(error.description == "nesting deeper than the maximum of 64 levels at byte 64")
        }
    }

    @Test("objects count toward depth like arrays")
    func objectsCountTowardDepth() {
        let text = #"{"a":{"b":{"c":1}}}"#
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text, options: JSONParseOptions(maxDepth: 2)) }
        #expect((try? JSONValue(parsing: text, options: JSONParseOptions(maxDepth: 3))) != nil)
    }

    @Test("survives the default depth limit without exhausting the stack")
    func defaultDepthIsSafe() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: nested(100_000)) }
        #expect((try? JSONValue(parsing: nested(512))) != nil)
    }

    static let texts: [String] = ["", "ascii", "é", "日本語", "😀👍🏽", "a\u{0}b", "\u{10FFFF}", "e\u{301}"]

    @Test("round-trips any Unicode text", arguments: texts)
    func roundTripsUnicode(_ text: String) throws {
        let encoded = JSONValue.string(text).encodedBytes()
        let back = try JSONValue(parsing: encoded)
        #expect(back.stringValue.map { Array($0.utf8) } == Array(text.utf8))
    }

    @Test("passes raw multi-byte UTF-8 through without escaping")
    func keepsUTF8Raw() {
        #expect(JSONValue.string("é😀").encodedBytes() == Array("\"é😀\"".utf8))
    }
}
