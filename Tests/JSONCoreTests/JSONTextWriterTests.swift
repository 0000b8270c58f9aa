import JSONCore
import ReactiveTesting
import Testing

/// `JSONByteWritable` types write their text themselves (JSONTextWriter.swift): the bytes must
/// be exactly what the serializer writes for their `jsonValue`, for every standard type, over
/// values that reach the serializer's corners (escapes, non-ASCII text, text longer than its
/// stack chunk, number extremes, nesting).
@Suite("Values written as text without a tree")
struct JSONTextWriterTests {
    /// What the serializer writes for `value.jsonValue`.
    static func treeBytes(_ value: some JSONConvertible) -> [UInt8] {
        value.jsonValue.encodedBytes()
    }

    static func expectAgreement<Value: JSONByteWritable>(
        _ values: [Value], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for value in values {
            #expect(value.writtenJSON() == treeBytes(value), "\(value)", sourceLocation: sourceLocation)
        }
    }

    static let texts: [String] = [
        "", "plain", "café", "日本語", "😀 and 👩‍👩‍👧", "quote \" backslash \\ slash /",
        "\n\r\t\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}", "\u{2028}\u{2029}", "K\u{212A}",
        String(repeating: "a\"é\u{1}", count: 400), String(repeating: "x", count: 5_000),
    ]

    static let integers: [Int64] = [0, 1, -1, 9, 10, 99, 100, 12_345_678, 99_999_999, 100_000_000, -100_000_000, .max, .min, .max - 1, .min + 1]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 1e-7, 1.5e300, -2.5e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        .leastNormalMagnitude, 123_456_789.125, 1e16, 1e15, .pi, .nan, .infinity, -.infinity,
    ]

    @Test("strings are written as the serializer writes them: escapes, non-ASCII, longer than a chunk")
    func strings() {
        Self.expectAgreement(Self.texts)
    }

    @Test("integers are written as the serializer writes them, extremes included")
    func integersAgree() {
        Self.expectAgreement(Self.integers)
        Self.expectAgreement(Self.integers.compactMap { Int(exactly: $0) })
    }

    @Test("doubles are written in the serializer's shortest form, and not finite ones as null")
    func doublesAgree() {
        Self.expectAgreement(Self.doubles)
    }

    @Test("booleans, optionals, arrays and dictionaries are written as their trees are")
    func containers() {
        Self.expectAgreement([true, false])
        Self.expectAgreement([nil, 3, -7] as [Int?])
        Self.expectAgreement([nil, "a\"b"] as [String?])
        Self.expectAgreement([[], [1], [1, 2, 3]] as [[Int]])
        Self.expectAgreement([[], [[]], [[1.5], [], [.nan, 2]]] as [[[Double]]])
        Self.expectAgreement([[:], ["b": 1, "a": 2, "é": 3, "\"": 4, "": 5]] as [[String: Int]])
        Self.expectAgreement([["x": [["y": [true, false]]]]] as [[String: [[String: [Bool]]]]])
        Self.expectAgreement([Self.texts])
    }

    /// A random tree of every kind of value, nested up to `depth`.
    static func randomTree(depth: Int, using generator: inout some RandomNumberGenerator) -> JSONValue {
        let kind = depth == 0 ? Int.random(in: 0..<5, using: &generator) : Int.random(in: 0..<7, using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(integers.randomElement(using: &generator) ?? 0)
        case 3: return .double(doubles.randomElement(using: &generator) ?? 0)
        case 4: return .string(texts.randomElement(using: &generator) ?? "")
        case 5:
            return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in randomTree(depth: depth - 1, using: &generator) })
        default:
            var object = JSONObject()
            for index in 0..<Int.random(in: 0..<4, using: &generator) {
                object["k\(index)\(texts.randomElement(using: &generator) ?? "")"] = randomTree(depth: depth - 1, using: &generator)
            }
            return .object(object)
        }
    }

    /// Writes `value` through the writer's own pieces (brackets, keys, scalars), not its
    /// `write(JSONValue)`: checks the writer's commas at every nesting.
    static func writePiecewise(_ value: JSONValue, to writer: inout JSONTextWriter) {
        switch value {
        case .null: writer.writeNull()
        case .bool(let flag): writer.write(flag)
        case .integer(let number): writer.write(number)
        case .double(let number): writer.write(number)
        case .string(let text): writer.write(text)
        case .array(let elements):
            writer.beginArray()
            for element in elements { writePiecewise(element, to: &writer) }
            writer.endArray()
        case .object(let object):
            writer.beginObject()
            for (key, member) in object {
                writer.key(key)
                writePiecewise(member, to: &writer)
            }
            writer.endObject()
        }
    }

    @Test("random trees written piece by piece, or whole, come out as the serializer writes them", arguments: [1, 2, 3] as [UInt64])
    func randomTrees(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let tree = Self.randomTree(depth: 4, using: &generator)
            var piecewise: [UInt8] = []
            JSONTextWriter.append(to: &piecewise) { Self.writePiecewise(tree, to: &$0) }
            #expect(piecewise == tree.encodedBytes(), "seed \(seed): \(tree)")
            #expect(tree.writtenJSON() == tree.encodedBytes())
            if case .object(let object) = tree { #expect(object.writtenJSON() == tree.encodedBytes()) }
        }
    }

    @Test("text is appended after what the buffer holds, and members with ASCII keys read back")
    func appendsAndASCIIKeys() throws {
        var buffer = Array("prefix:".utf8)
        let longKey: StaticString = "a key longer than sixty-four bytes, copied byte by byte into the chunk"
        JSONTextWriter.append(to: &buffer) { writer in
            writer.beginObject()
            writer.member(ascii: "id", 7)
            writer.memberIfPresent(ascii: "gone", nil as Int?)
            writer.memberIfPresent(ascii: "here", "x" as String?)
            writer.member(ascii: longKey, [1.5, -0.0])
            writer.endObject()
        }
        let expected = #"prefix:{"id":7,"here":"x","\#(longKey)":[1.5,-0.0]}"#
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }
}
