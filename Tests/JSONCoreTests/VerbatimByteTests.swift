import JSONCore
import Testing

/// `JSONByteWriter.writesVerbatim` states which bytes a JSON string literal holds as they are;
/// the string writers, the ASCII-key checks and the `vm.create` reply's size all ask it. Checked
/// here against what the general encoder (`JSONValue.encodedBytes()`) writes for every one of
/// the 256 byte values.
@Suite("The bytes a JSON string holds as they are")
struct VerbatimByteTests {
    /// A valid UTF-8 text in which `byte` occurs, `nil` for the bytes UTF-8 never uses (0xC0,
    /// 0xC1, 0xF5 to 0xFF).
    static func text(containing byte: UInt8) -> [UInt8]? {
        switch byte {
        case 0x00...0x7F: [byte]
        case 0x80...0xBF: [0xC2, byte]
        case 0xC2...0xDF: [byte, 0x80]
        case 0xE0: [0xE0, 0xA0, 0x80]
        case 0xE1...0xEF: [byte, 0x80, 0x80]
        case 0xF0: [0xF0, 0x90, 0x80, 0x80]
        case 0xF1...0xF4: [byte, 0x80, 0x80, 0x80]
        default: nil
        }
    }

    /// The escape the encoder writes for an ASCII byte it does not write as it is: JSON's short
    /// forms where there is one, else `\u00xx` in lower-case hex.
    static func escape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "\""): return Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): return Array(#"\\"#.utf8)
        case 0x08: return Array(#"\b"#.utf8)
        case 0x09: return Array(#"\t"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0C: return Array(#"\f"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            return Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }

    @Test("A byte the predicate passes is written as it is and any other is escaped, for all 256 values")
    func predicateMatchesTheEncoderOnEveryByte() {
        var escaped: [UInt8] = []
        for value in 0...255 {
            let byte = UInt8(value)
            guard let text = Self.text(containing: byte) else {
                // No string holds it, so no encoder meets it; the rule names it nowhere.
                #expect(JSONByteWriter.writesVerbatim(byte), "byte \(byte)")
                continue
            }
            let encoded = JSONValue.string(String(decoding: text, as: UTF8.self)).encodedBytes()
            if JSONByteWriter.writesVerbatim(byte) {
                #expect(encoded == [0x22] + text + [0x22], "byte \(byte)")
            } else {
                escaped.append(byte)
                #expect(encoded == [0x22] + Self.escape(byte) + [0x22], "byte \(byte)")
            }
        }
        #expect(escaped == Array(0x00...0x1F) + [UInt8(ascii: "\""), UInt8(ascii: "\\")])
    }

    @Test("A run of bytes is written as it is exactly when each of its bytes is")
    func runPassesWhenEveryBytePasses() {
        let runs: [[UInt8]] = [
            [], Array("counter-1".utf8), Array("café 日本".utf8), [0x7F, 0x80, 0xFF],
            Array("quote\"".utf8), Array("back\\slash".utf8), [0x41, 0x1F, 0x41], [0x00], Array(repeating: 0x61, count: 100) + [0x0A],
        ]
        for run in runs {
            let expected = run.allSatisfy { JSONByteWriter.writesVerbatim($0) }
            #expect(run.withUnsafeBufferPointer { JSONByteWriter.writesVerbatim($0) } == expected, "\(run)")
        }
        #expect(Array("counter-1".utf8).withUnsafeBufferPointer { JSONByteWriter.writesVerbatim($0) })
        #expect(![UInt8(ascii: "a"), 0x22].withUnsafeBufferPointer { JSONByteWriter.writesVerbatim($0) })
    }
}
