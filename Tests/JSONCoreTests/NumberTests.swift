import JSONCore
import Testing

@Suite("Numbers")
struct NumberTests {
    static let cases: [(text: String, value: JSONValue)] = [
        ("0", .integer(0)), ("-1", .integer(-1)), ("42", .integer(42)),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.5", .double(1.5)), ("0.1", .double(0.1)), ("1e3", .double(1000)), ("1E-2", .double(0.01)),
        ("123.456e-7", .double(123.456e-7)), ("5e-324", .double(.leastNonzeroMagnitude)), ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("0.30000000000000004", .double(0.30000000000000004)), ("12345678901234567890.5", .double(12345678901234567890.5)),
        ("2.2250738585072011e-308", .double(Double(bitPattern: 0x000F_FFFF_FFFF_FFFF))), ("1e-400", .double(0)),
    ]

    @Test("parses numbers exactly", arguments: cases)
    func parsesNumbers(_ text: String, _ expected: JSONValue) throws {
        let value = try JSONValue(parsing: text)
        switch (value, expected) {
        case let (.integer(a), .integer(b)): #expect(a == b)
        case let (.double(a), .double(b)): #expect(a.bitPattern == b.bitPattern, "\(text) → \(a), wanted \(b)")
        default: Issue.record("\(text) parsed as \(value), wanted \(expected)")
        }
    }

    /// Every digit count's edges, both signs, and the extremes.
    static let digitCountEdges: [Int64] = {
        var numbers: [Int64] = [0, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        return numbers
    }()

    @Test("integers are written as their decimal text on either side of every digit-count boundary")
    func writesIntegers() {
        for number in Self.digitCountEdges {
            var buffer: [UInt8] = Array("x".utf8)
            JSONSerializer.appendInteger(number, to: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == "x\(number)")
        }
    }

    @Test("the raw byte writer writes the same digits as the serializer, within its stated maximum")
    func rawDigitsMatchTheSerializer() {
        for number in Self.digitCountEdges {
            var expected: [UInt8] = []
            JSONSerializer.appendInteger(number, to: &expected)
            let written = withUnsafeTemporaryAllocation(byteCount: JSONByteWriter.maximumDigitsByteCount, alignment: 1) { raw in
                guard let base = raw.baseAddress else { return [UInt8]() }
                let end = JSONByteWriter.writeDigits(number, to: base)
                return Array(UnsafeRawBufferPointer(start: base, count: end - base))
            }
            #expect(written == expected)
            #expect(written.count <= JSONByteWriter.maximumDigitsByteCount)
        }
    }

    @Test("keeps the sign of negative zero")
    func keepsNegativeZero() throws {
        let value = try JSONValue(parsing: "-0")
        guard case .double(let number) = value else { Issue.record("\(value)"); return }
        #expect(number == 0 && number.sign == .minus)
        #expect(value.encodedString() == "-0.0")
    }

    static let doubles: [Double] = [0.1, 1.0 / 3.0, 1e21, 1e-7, 123456.789, -2.5, 1e300, .leastNonzeroMagnitude, 0.5, 100]

    @Test("writes doubles in a shortest form that round-trips", arguments: doubles)
    func doublesRoundTrip(_ number: Double) throws {
        let text = JSONValue.double(number).encodedString()
        let back = try JSONValue(parsing: text)
        #expect(back.doubleValue?.bitPattern == number.bitPattern, "\(text)")
        #expect(!text.contains("inf") && !text.contains("nan"))
    }

    @Test("writes non-finite doubles as null", arguments: [Double.infinity, -.infinity, .nan])
    func nonFiniteIsNull(_ number: Double) {
        #expect(JSONValue.double(number).encodedString() == "null")
    }

    @Test("writes integers at the edges", arguments: [Int64.min, -1, 0, 7, 10, Int64.max])
    func writesIntegers(_ number: Int64) {
        #expect(JSONValue.integer(number).encodedString() == String(number))
    }

    @Test("numbers beyond Int64 are no integers at either end: -2^63 - 1 is refused like 2^63", arguments: [
        "9223372036854775808", "-9223372036854775809", "-9223372036854775810", "-9.223372036854775808e18", "9.223372036854775807e18",
    ])
    func beyondInt64IsNoInteger(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(value.int64Value == nil)
        #expect(value.intValue == nil)
        #expect(throws: JSONDecodingError.self) { try Int(json: value) }
    }

    @Test("Int64's own ends stay integers")
    func int64EndsStayIntegers() throws {
        #expect(try JSONValue(parsing: "-9223372036854775808").int64Value == .min)
        #expect(try JSONValue(parsing: "9223372036854775807").int64Value == .max)
    }

    @Test("a parse error names a 20,000-digit number by its start and length, not in full")
    func longNumberIsAbbreviatedInErrors() {
        let text = "[1" + String(repeating: "0", count: 20_000) + "]"
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("a number beyond any double parsed")
        } catch {
            let message = String(describing: error)
            #expect(message.count < 200, "\(message.prefix(300))")
            #expect(message.contains("10000000000000000000… (20001 characters)"))
        }
    }

    @Test("compares integers and integral doubles by value")
    func comparesByValue() {
        #expect(JSONValue.integer(1) == .double(1.0))
        #expect(JSONValue.integer(1).hashValue == JSONValue.double(1.0).hashValue)
        #expect(JSONValue.integer(1) != .double(1.5))
        #expect(JSONValue.double(2.0).intValue == 2)
        #expect(JSONValue.double(2.5).intValue == nil)
    }
}
