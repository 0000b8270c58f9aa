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
        case .null: appendASCII("null", to: &buffer)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &buffer)
        case .integer(let number): appendInteger(number, to: &buffer)
        case .double(let number): appendDouble(number, to: &buffer)
        case .string(let text): appendString(text, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                append(element, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            var first = true
            for member in object.storage {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                appendString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                append(member.value, to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

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
        // The standard library's description is the shortest text that parses back to the
        // same double ("0.1", "1e-07", "1.0"); every form it prints for finite values is
        // valid JSON. It fits the small-string storage, so no allocation.
        buffer.append(contentsOf: number.description.utf8)
    }

    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendString(_ text: String, to buffer: inout [UInt8]) {
        var text = text  // withUTF8 needs a var; native strings are not copied
        text.withUTF8 { bytes in appendQuoted(bytes, to: &buffer) }
    }

    static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + bytes.count + 2)
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // One unsigned range test covers the control characters; quote and backslash follow.
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if runStart < index {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            appendEscape(for: byte, to: &buffer)
            index += 1
            runStart = index
        }
        if runStart < bytes.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    static func appendEscape(for byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        default:
            buffer.append(UInt8(ascii: "u"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(hexDigit(byte >> 4))
            buffer.append(hexDigit(byte & 0xF))
        }
    }

    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
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
