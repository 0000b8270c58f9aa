import JSONCore
import Testing

/// The byte reader against the general path (parse into a tree, check the type's schema,
/// `init(json:)`) on the same bytes: whatever the reader accepts, the general path accepts as
/// the same value; whatever it declines goes to the general path, which then decides.
@Suite("JSONByteReader: what a type reads from bytes is what the general path reads")
struct JSONByteReaderTests {
    /// A sent value's place: params' `value`, as the server reads it.
    static let depth = 2

    /// The value the general path gives for `bytes`, `nil` when it refuses them.
    static func general<T: JSONConvertible>(_: T.Type, _ bytes: [UInt8], maxDepth: Int) -> T? {
        bytes.withUnsafeBytes { raw -> T? in
            guard let (value, end) = try? JSONParser.parseMember(
                in: raw, at: 0, depth: depth, options: JSONParseOptions(maxDepth: maxDepth)) else { return nil }
            guard raw[end...].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
            guard let schema = try? JSONSchema(T.jsonSchema), (try? schema.validate(value)) != nil else { return nil }
            return try? T(json: value)
        }
    }

    /// The value the type's reader gives for `bytes`, `nil` when it declines them.
    static func fast<T: JSONReadable>(_: T.Type, _ bytes: [UInt8], maxDepth: Int) -> T? {
        bytes.withUnsafeBufferPointer { buffer -> T? in
            try? JSONByteReader.readWhole(buffer, depth: depth, maxDepth: maxDepth) { reader throws(JSONDecodingError) in
                try T(reading: &reader)
            }
        }
    }

    /// Checks the rule on every input, and that the reader reads each of `read` itself.
    static func expectAgreement<T: JSONReadable & Equatable>(
        _ type: T.Type, inputs: [[UInt8]], read: Set<[UInt8]>, maxDepth: Int = 512,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for input in inputs {
            let fromBytes = fast(type, input, maxDepth: maxDepth)
            let label = String(decoding: input, as: UTF8.self)
            if let fromBytes {
                #expect(general(type, input, maxDepth: maxDepth) == fromBytes, "\(label)", sourceLocation: sourceLocation)
            }
            if read.contains(input) {
                #expect(fromBytes != nil, "the reader declined \(label)", sourceLocation: sourceLocation)
            }
        }
    }

    static func bytes(_ texts: [String]) -> [[UInt8]] { texts.map { Array($0.utf8) } }

    static let numbers = bytes([
        "0", "1", "-1", "42", " 7 ", "\n\t-12\r ", "123456789012345678", "-123456789012345678",
        "1234567890123456789", "9223372036854775807", "-9223372036854775808", "99999999999999999999",
        "-0", "01", "-01", "1.0", "1.5", "1e3", "1E3", "-", "+1", "--1", "1 2", "", " ", "1,", "0x10",
    ])
    static let strings = bytes([
        #""""#, #""abc""#, #" "with space" "#, #""a\"b""#, #""\u0041""#, #""\n""#, #""\/""#,
        "\"é\"", "\"日本語\"", "\"😀\"", "\"a\tb\"", "\"unterminated", #""a"x"#, #""a""b""#,
    ]) + [
        [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x00, 0x22],
    ]
    static let literals = bytes(["true", "false", "null", " true ", "tru", "truex", "True", "nul", "nulll", "fals"])
    static let arrays = bytes([
        "[]", "[ ]", "[1,2,3]", " [ 1 , 2 ] ", "[1,]", "[,1]", "[1 2]", "[1", "[", "]", "[[1],[2]]", "[[]]",
        #"["a",1]"#, #"["a","b"]"#, "[null,1]", "[true,false]", "{}", #"{"a":1}"#, "[1]]",
    ])
    static var all: [[UInt8]] { numbers + strings + literals + arrays }

    @Test("integers: the plain ones are read, every other form is left to the general path")
    func integers() {
        Self.expectAgreement(Int.self, inputs: Self.all, read: Set(Self.bytes([
            "0", "1", "-1", "42", " 7 ", "\n\t-12\r ", "123456789012345678", "-123456789012345678",
        ])))
        Self.expectAgreement(Int64.self, inputs: Self.all, read: Set(Self.bytes(["0", "-5"])))
    }

    @Test("strings: plain ASCII and valid UTF-8 are read; escapes, control characters and invalid UTF-8 are not")
    func strings() {
        Self.expectAgreement(String.self, inputs: Self.all, read: Set(Self.bytes([
            #""""#, #""abc""#, #" "with space" "#, "\"é\"", "\"日本語\"", "\"😀\"",
        ])))
        for declined in Self.strings where declined.contains(0x5C) || declined.contains(0x09) || declined.contains(0xFF) {
            #expect(Self.fast(String.self, declined, maxDepth: 512) == nil)
        }
    }

    @Test("booleans and null")
    func literals() {
        Self.expectAgreement(Bool.self, inputs: Self.all, read: Set(Self.bytes(["true", "false", " true "])))
        Self.expectAgreement(Int?.self, inputs: Self.all, read: Set(Self.bytes(["null", "1"])))
        Self.expectAgreement(String?.self, inputs: Self.all, read: Set(Self.bytes(["null", #""abc""#])))
    }

    @Test("arrays, nested arrays and optional elements")
    func arrays() {
        Self.expectAgreement([Int].self, inputs: Self.all, read: Set(Self.bytes(["[]", "[ ]", "[1,2,3]", " [ 1 , 2 ] "])))
        Self.expectAgreement([String].self, inputs: Self.all, read: Set(Self.bytes([#"["a","b"]"#, "[]"])))
        Self.expectAgreement([[Int]].self, inputs: Self.all, read: Set(Self.bytes(["[[1],[2]]", "[[]]", "[]"])))
        Self.expectAgreement([Int?].self, inputs: Self.all, read: Set(Self.bytes(["[null,1]"])))
    }

    @Test("a whole read takes the value with whitespace around it, and declines anything after it")
    func wholeReads() {
        func whole(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBufferPointer { buffer in
                try? JSONByteReader.readWhole(buffer, depth: Self.depth, maxDepth: 512) { reader throws(JSONDecodingError) in
                    try reader.readInt()
                }
            }
        }
        #expect(whole("7") == 7)
        #expect(whole(" \n7\t ") == 7)
        #expect(whole("7 7") == nil)
        #expect(whole("7,") == nil)
        #expect(whole("7}") == nil)
        #expect(whole("") == nil)
    }

    @Test("nesting beyond maxDepth is declined, as the parser refuses it")
    func depth() {
        let nested = Array("[[1]]".utf8)
        // The value sits at depth 2: its array is at 3, the inner one at 4.
        #expect(Self.fast([[Int]].self, nested, maxDepth: 4) == [[1]])
        #expect(Self.fast([[Int]].self, nested, maxDepth: 3) == nil)
        #expect(Self.general([[Int]].self, nested, maxDepth: 3) == nil)
        #expect(Self.fast([Int].self, Array("[]".utf8), maxDepth: 2) == nil)
        Self.expectAgreement([[Int]].self, inputs: Self.all, read: [], maxDepth: 3)
    }

    @Test("an object's members come in order with their names; names with escapes are declined")
    func objects() {
        func pairs(_ text: String) -> [String]? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { buffer -> [String]? in
                var seen: [String] = []
                let read: ()? = try? JSONByteReader.readWhole(buffer, depth: Self.depth, maxDepth: 512) { reader throws(JSONDecodingError) in
                    try reader.readObject { key, reader throws(JSONDecodingError) in
                        switch key {
                        case "a": seen.append("a=\(try reader.readInt())")
                        case "bé": seen.append("bé=\(try reader.readString())")
                        case "é": seen.append("é=\(try reader.readBool())")
                        default: throw JSONByteReader.unread
                        }
                    }
                }
                return read.map { seen }
            }
        }
        #expect(pairs("{}") == [])
        #expect(pairs(#" { "a" : 1 , "bé" : "x" } "#) == ["a=1", "bé=x"])
        #expect(pairs(#"{"bé":"x","a":2}"#) == ["bé=x", "a=2"])
        #expect(pairs(#"{"é":true}"#) == ["é=true"])
        #expect(pairs(#"{"\u0061":1}"#) == nil)
        #expect(pairs(#"{"a":1,}"#) == nil)
        #expect(pairs(#"{"a":1"#) == nil)
        #expect(pairs(#"{"a" 1}"#) == nil)
        #expect(pairs(#"{"c":1}"#) == nil)
        #expect(pairs(#"{"a":1} x"#) == nil)
    }

    @Test("init(readingJSON:) reads a whole text as the kit reads a sent value, and declines what follows it and what it does not read")
    func readingAWholeText() throws {
        #expect(try [Int](readingJSON: " [1, -2, 30] ") == [1, -2, 30])
        #expect(try String(readingJSON: #""héllo""#) == "héllo")
        #expect(try Int?(readingJSON: "null") == nil)
        #expect(throws: JSONByteReader.unread) { try Int(readingJSON: "1 2") }
        #expect(throws: JSONByteReader.unread) { try String(readingJSON: #""a\nb""#) }
        #expect(throws: JSONByteReader.unread) { try Int(readingJSON: "1.5") }
        #expect(try [[Int]](readingJSON: "[[1], []]") == [[1], []])
    }
}
