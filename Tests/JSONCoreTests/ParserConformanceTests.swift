import JSONCore
import Testing

@Suite("RFC 8259 conformance")
struct ParserConformanceTests {
    static let accepted: [String] = [
        "null", "true", "false", "0", "-0", "1", "-1", "123456789", "1.5", "-1.5e10", "1E+2", "1e-2",
        "0.0", "0e0", "\"\"", "\"abc\"", "[]", "{}", "[1,2,3]", "{\"a\":1}", " \t\r\n[ 1 , 2 ]\n ",
        "[[[]]]", "{\"a\":{\"b\":[null,{}]}}", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u0041\"",
        "\"\\ud83d\\ude00\"", "\"é\"", "\"😀\"", "\"\\u0000\"", "{\"a\":1,\"a\":2}", "1.0e+2", "1e-99999999999999999999",
        "[1e-400]", "-9223372036854775808", "9223372036854775807", "18446744073709551616",
        "\"\u{7F}\"", "\"\u{10FFFF}\"",
    ]

    @Test("accepts every valid document", arguments: accepted)
    func acceptsValidDocuments(_ text: String) throws {
        _ = try JSONValue(parsing: text)
    }

    static let rejected: [(text: String, kind: JSONParseError.Kind)] = [
        ("", .unexpectedEnd), ("   ", .unexpectedEnd), ("[1,]", .unexpectedByte), ("{\"a\":1,}", .unexpectedByte),
        ("[1 2]", .unexpectedByte), ("{\"a\" 1}", .unexpectedByte), ("{a:1}", .unexpectedByte),
        ("01", .invalidNumber), ("-01", .invalidNumber), ("1.", .invalidNumber), (".5", .unexpectedByte),
        ("1e", .invalidNumber), ("1e+", .invalidNumber), ("-", .invalidNumber), ("+1", .unexpectedByte),
        ("0x10", .trailingData), ("NaN", .unexpectedByte), ("Infinity", .unexpectedByte), ("1e400", .invalidNumber),
        ("\"abc", .unexpectedEnd), ("\"\\x\"", .invalidEscape), ("\"\\u12\"", .invalidEscape),
        ("\"\\u12", .unexpectedEnd), ("\"\\ud800\"", .loneSurrogate), ("\"\\udc00\"", .loneSurrogate),
        ("\"\\ud800\\u0041\"", .loneSurrogate), ("\"\t\"", .controlCharacter), ("\"\n\"", .controlCharacter),
        ("tru", .unexpectedEnd), ("nul", .unexpectedEnd), ("True", .unexpectedByte), ("[", .unexpectedEnd),
        ("{", .unexpectedEnd), ("[1", .unexpectedEnd), ("{\"a\":", .unexpectedEnd), ("1 2", .trailingData),
        ("{} x", .trailingData), ("'a'", .unexpectedByte), ("[1,,2]", .unexpectedByte), ("\u{FEFF}1", .unexpectedByte),
    ]

    @Test("rejects every invalid document with the right kind", arguments: rejected)
    func rejectsInvalidDocuments(_ text: String, _ kind: JSONParseError.Kind) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.kind == kind, "\(text): \(error)")
        }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22],
        [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0xE2, 0x82], [0x22, 0x80, 0x22],
    ]

    @Test("rejects ill-formed UTF-8 inside strings", arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ bytes: [UInt8]) {
        do {
            let value = try JSONValue(parsing: bytes)
            Issue.record("accepted \(bytes) as \(value)")
        } catch {
            #expect(error.kind == .invalidUTF8)
        }
    }

    @Test("reports the byte offset and a readable message")
    func reportsPreciseErrors() {
        let text = #"{"a":1,"b":2 "c":3}"#
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 13)
            #expect(error.description == "expected ',' or '}' after object member but found '\"' at byte 13")
        }
    }

    @Test("names the trailing comma")
    func namesTrailingComma() {
        #expect(throws: JSONParseError(.unexpectedByte, "trailing comma before ']' is not allowed", at: 3)) {
            try JSONValue(parsing: "[1,]")
        }
    }

    @Test("parses from slices and raw buffers alike")
    func parsesFromEveryBufferKind() throws {
        let bytes = Array("xx[1,\"a\"]yy".utf8)
        let slice = bytes[2..<9]
        let expected: JSONValue = [1, "a"]
        #expect(try JSONValue(parsing: slice) == expected)
        let fromRaw = try Array(slice).withUnsafeBytes { try JSONValue(parsing: $0) }
        #expect(fromRaw == expected)
        #expect(try JSONValue(parsing: AnyCollection(slice)) == expected)
    }
}
