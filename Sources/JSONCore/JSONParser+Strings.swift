// Strings: the hot path creates a String straight from the input bytes when the
// string has no escapes; UTF-8 is validated here (not repaired), so a String is only
// ever built from well-formed bytes.

extension JSONParser {
    /// Parses a string starting at the opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        var isASCII = false
        return try parseString(isASCII: &isASCII)
    }

    /// Parses a string starting at the opening quote; sets `isASCII` when it was written as
    /// ASCII without escapes (its bytes are then the string's UTF-8, byte for byte).
    mutating func parseString(isASCII plainASCII: inout Bool) throws(JSONParseError) -> String {
        let start = position + 1  // after the opening quote
        // The hot loop works on a local index: `position` lives in `self`, and the compiler
        // reloads it around every byte load unless it is kept in a register like this.
        var index = start
        var isASCII = true
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                let count = index - start
                plainASCII = isASCII
                if isASCII && count <= 15 { return shortASCIIString(at: start, count: count) }
                return String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
                position = index
                if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
                if byte < 0x20 { throw controlCharacterError() }
                try skipMultibyteScalar()
                isASCII = false
                index = position
            } else {
                index += 1
            }
        }
        position = index
        throw JSONParseError(.unexpectedEnd, "unterminated string (missing closing '\"')", at: position)
    }

    /// A string of at most 15 ASCII bytes (keys and most values on the wire). For such a
    /// capacity the stdlib fills a small (inline) string in place and, seeing only ASCII,
    /// skips validation; `String(decoding:as:)` validated and copied again (~170
    /// instructions a string in callgrind).
    @inline(__always)
    func shortASCIIString(at start: Int, count: Int) -> String {
        let source = base + start
        return String(unsafeUninitializedCapacity: count) { buffer in
            guard let target = buffer.baseAddress else { return 0 }
            target.initialize(from: source, count: count)
            return count
        }
    }

    /// Slow path: the string contains escapes; decode into a byte buffer.
    mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(position - start + 16)
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while position < end {
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try decodeEscape(into: &bytes)
            case 0..<0x20:
                throw controlCharacterError()
            case 0x20..<0x80:
                bytes.append(byte)
                position += 1
            default:
                let scalarStart = position
                try skipMultibyteScalar()
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + scalarStart, count: position - scalarStart))
            }
        }
        throw JSONParseError(.unexpectedEnd, "unterminated string (missing closing '\"')", at: position)
    }

    func controlCharacterError() -> JSONParseError {
        JSONParseError(.controlCharacter, "unescaped control character \(describeByte(at: position)) in string (escape it as \\uXXXX)", at: position)
    }

    /// Decodes one escape sequence at `position` (a backslash) and appends its UTF-8.
    mutating func decodeEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        position += 1
        guard position < end else {
            throw JSONParseError(.unexpectedEnd, "unterminated escape sequence", at: position)
        }
        let letter = base[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard position + 1 < end, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(.loneSurrogate, "high surrogate \\u\(hex4(unit)) is not followed by a low surrogate escape", at: escapeStart)
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(.loneSurrogate, "high surrogate \\u\(hex4(unit)) is followed by \\u\(hex4(low)), not a low surrogate", at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                throw JSONParseError(.loneSurrogate, "lone low surrogate \\u\(hex4(unit))", at: escapeStart)
            default:
                scalarValue = UInt32(unit)
            }
            // Surrogates were handled above, so this scalar is always valid.
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw JSONParseError(.invalidEscape, "invalid code point in escape", at: escapeStart)
            }
            appendUTF8(scalar, to: &bytes)
        default:
            throw JSONParseError(.invalidEscape, "invalid escape sequence '\\\(describeEscapeLetter(letter))' (JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: escapeStart)
        }
    }

    private func describeEscapeLetter(_ byte: UInt8) -> String {
        (0x20...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "<0x\(String(byte, radix: 16))>"
    }

    private func hex4(_ unit: UInt16) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    /// Reads exactly four hex digits at `position`.
    mutating func readHex4() throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 {
            guard position + offset < end else {
                throw JSONParseError(.unexpectedEnd, "\\u escape needs four hex digits but the input ended", at: position + offset)
            }
            let byte = base[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(.invalidEscape, "\\u escape needs four hex digits but found \(describeByte(at: position + offset))", at: position + offset)
            }
            unit = unit << 4 | UInt16(digit)
        }
        position += 4
        return unit
    }

    func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Validates one multi-byte UTF-8 scalar at `position` (a byte >= 0x80) and steps over it.
    /// Follows Unicode's table of well-formed sequences: no overlongs, no encoded
    /// surrogates, nothing above U+10FFFF.
    mutating func skipMultibyteScalar() throws(JSONParseError) {
        let lead = base[position]
        let length: Int
        var secondLow: UInt8 = 0x80, secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondHigh = 0x8F
        default:
            throw JSONParseError(.invalidUTF8, "invalid UTF-8 lead byte \(describeByte(at: position))", at: position)
        }
        guard position + length <= end else {
            throw JSONParseError(.invalidUTF8, "truncated UTF-8 sequence", at: position)
        }
        let second = base[position + 1]
        guard second >= secondLow, second <= secondHigh else {
            throw JSONParseError(.invalidUTF8, "invalid UTF-8 continuation byte \(describeByte(at: position + 1))", at: position + 1)
        }
        if length > 2 {
            for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 {
                throw JSONParseError(.invalidUTF8, "invalid UTF-8 continuation byte \(describeByte(at: position + offset))", at: position + offset)
            }
        }
        position += length
    }
}
