/// Writes ``JSONValue``s as UTF-8 JSON text straight into a byte buffer.
///
/// Deterministic: object members in insertion order, no optional whitespace, strings
/// escaped minimally (`"`, `\`, and control characters; everything else verbatim UTF-8),
/// doubles in the shortest form that round-trips, non-finite doubles as `null` (JSON has
/// no spelling for them).
public enum JSONSerializer {
    /// Appends the compact JSON text of `value` to `buffer`.
    public static func append(_ value: JSONValue, to buffer: inout [UInt8]) {
        switch value {
        // A lone scalar is one piece: appended directly, without setting up a chunk.
        case .null: appendASCII("null", to: &buffer)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &buffer)
        case .integer(let number): appendInteger(number, to: &buffer)
        case .double(let number): appendDouble(number, to: &buffer)
        case .string, .array, .object:
            JSONTextScratch.writing(to: &buffer) { scratch, buffer in
                write(value, to: &scratch, flushingTo: &buffer)
            }
        }
    }

    static func write(_ value: JSONValue, to scratch: inout JSONTextScratch, flushingTo buffer: inout [UInt8]) {
        switch value {
        case .null: scratch.write("null", flushingTo: &buffer)
        case .bool(let flag): scratch.write(flag ? "true" : "false", flushingTo: &buffer)
        case .integer(let number): scratch.writeDigits(number, flushingTo: &buffer)
        case .double(let number):
            if number.isFinite {
                scratch.write(verbatim: shortestText(of: number).utf8, flushingTo: &buffer)
            } else {
                scratch.write("null", flushingTo: &buffer)
            }
        case .string(let text): writeString(text, to: &scratch, flushingTo: &buffer)
        case .array(let elements):
            scratch.write(UInt8(ascii: "["), flushingTo: &buffer)
            var first = true
            for element in elements {
                if !first { scratch.write(UInt8(ascii: ","), flushingTo: &buffer) }
                first = false
                write(element, to: &scratch, flushingTo: &buffer)
            }
            scratch.write(UInt8(ascii: "]"), flushingTo: &buffer)
        case .object(let object):
            scratch.write(UInt8(ascii: "{"), flushingTo: &buffer)
            var first = true
            for member in object.storage {
                if !first { scratch.write(UInt8(ascii: ","), flushingTo: &buffer) }
                first = false
                writeString(member.key, to: &scratch, flushingTo: &buffer)
                scratch.write(UInt8(ascii: ":"), flushingTo: &buffer)
                write(member.value, to: &scratch, flushingTo: &buffer)
            }
            scratch.write(UInt8(ascii: "}"), flushingTo: &buffer)
        }
    }

    static func writeString(_ text: String, to scratch: inout JSONTextScratch, flushingTo buffer: inout [UInt8]) {
        var text = text  // withUTF8 needs a var; native strings are not copied
        text.withUTF8 { bytes in scratch.writeQuoted(bytes, flushingTo: &buffer) }
    }

    /// The standard library's description: the shortest text that parses back to the same
    /// double ("0.1", "1e-07", "1.0"); every form it prints for finite values is valid JSON.
    /// It fits the small-string storage, so no allocation.
    @inline(__always)
    static func shortestText(of number: Double) -> String { number.description }

    @inline(__always)
    static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `number`.
    public static func appendInteger(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        // magnitude handles Int64.min without overflow.
        var magnitude = number.magnitude
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        if magnitude < 100_000_000 {
            // Up to eight digits: gathered in one word, most significant digit in the lowest
            // byte, then appended byte by byte (cheaper than a copy for so few).
            var digits: UInt64 = 0
            var count = 0
            repeat {
                digits = digits << 8 | (UInt64(UInt8(ascii: "0")) &+ magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            repeat {
                buffer.append(UInt8(truncatingIfNeeded: digits))
                digits >>= 8
                count -= 1
            } while count > 0
            return
        }
        // 20 digits is the most a UInt64 needs; fill from the right, then copy out.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            while magnitude > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    /// Appends `number` in its shortest round-trip form (`null` if not finite).
    public static func appendDouble(_ number: Double, to buffer: inout [UInt8]) {
        guard number.isFinite else {
            appendASCII("null", to: &buffer)
            return
        }
        buffer.append(contentsOf: shortestText(of: number).utf8)
    }

    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendString(_ text: String, to buffer: inout [UInt8]) {
        JSONTextScratch.writing(to: &buffer) { scratch, buffer in
            writeString(text, to: &scratch, flushingTo: &buffer)
        }
    }
}

extension JSONValue {
    /// Appends the compact JSON text of this value to `buffer` (no intermediate String).
    public func encode(into buffer: inout [UInt8]) {
        JSONSerializer.append(self, to: &buffer)
    }

    /// The compact JSON text as UTF-8 bytes.
    public func encodedBytes() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        JSONSerializer.append(self, to: &buffer)
        return buffer
    }

    /// The compact JSON text.
    public func encodedString() -> String {
        String(decoding: encodedBytes(), as: UTF8.self)
    }
}
