/// The line-by-line parser behind ``ConfigFile``. Each line is scanned as UTF-8 bytes; every
/// error names the line and says what to write instead.
struct ConfigFileParser {
    let path: String

    func parse(_ text: String) throws(ConfigurationError) -> [ConfigFile.Entry] {
        var entries: [ConfigFile.Entry] = []
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var bytes = Array(rawLine)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard let entry = try parseLine(bytes, number: lineNumber) else { continue }
            if let earlier = entries.first(where: { $0.key == entry.key }) {
                throw fail("key '\(entry.key)' is already set on line \(earlier.line); set each key once", lineNumber)
            }
            entries.append(entry)
        }
        return entries
    }

    private func fail(_ message: String, _ line: Int) -> ConfigurationError {
        ConfigurationError(message, at: .file(path: path, line: line))
    }

    private func parseLine(_ bytes: [UInt8], number: Int) throws(ConfigurationError) -> ConfigFile.Entry? {
        var cursor = ByteCursor(bytes)
        cursor.skipBlanks()
        guard let first = cursor.peek, first != UInt8(ascii: "#") else { return nil }
        if first == UInt8(ascii: "[") {
            throw fail("tables like '\(cursor.restOfLine)' are not supported; write 'key = value' lines at the top level", number)
        }
        let key = cursor.take(while: ByteCursor.isBareKeyByte)
        guard !key.isEmpty else {
            throw fail("expected a key (letters, digits, '-' or '_') at the start of the line, found '\(cursor.restOfLine)'", number)
        }
        if cursor.peek == UInt8(ascii: ".") {
            cursor.advance()
            let rest = cursor.take(while: ByteCursor.isBareKeyByte)
            throw fail("dotted keys like '\(key).\(rest)' are not supported; use a plain key", number)
        }
        cursor.skipBlanks()
        guard cursor.peek == UInt8(ascii: "=") else {
            let found = cursor.isAtEnd ? "the end of the line" : "'\(cursor.restOfLine)'"
            throw fail("expected '=' after key '\(key)', found \(found)", number)
        }
        cursor.advance()
        cursor.skipBlanks()
        if cursor.isAtEnd || cursor.peek == UInt8(ascii: "#") {
            throw fail("missing value for key '\(key)'; write \(key) = \"...\", a number, true or false", number)
        }
        let value = try parseValue(&cursor, key: key, line: number, allowArray: true)
        cursor.skipBlanks()
        if let next = cursor.peek, next != UInt8(ascii: "#") {
            throw fail("unexpected '\(cursor.restOfLine)' after the value of '\(key)'; put comments after '#'", number)
        }
        return ConfigFile.Entry(key: key, value: value, line: number)
    }

    private func parseValue(
        _ cursor: inout ByteCursor, key: String, line: Int, allowArray: Bool
    ) throws(ConfigurationError) -> ConfigValue {
        guard let first = cursor.peek else {
            throw fail("missing value for key '\(key)'", line)
        }
        switch first {
        case UInt8(ascii: "\""):
            if cursor.hasPrefix("\"\"\"") { throw fail("multi-line strings (\"\"\") are not supported", line) }
            return .string(try parseBasicString(&cursor, key: key, line: line))
        case UInt8(ascii: "'"):
            if cursor.hasPrefix("'''") { throw fail("multi-line strings (''') are not supported", line) }
            cursor.advance()
            let body = cursor.take { $0 != UInt8(ascii: "'") }
            guard cursor.peek == UInt8(ascii: "'") else {
                throw fail("unterminated string for key '\(key)'; add the closing '", line)
            }
            cursor.advance()
            return .string(body)
        case UInt8(ascii: "["):
            guard allowArray else { throw fail("nested lists are not supported (key '\(key)')", line) }
            return try parseArray(&cursor, key: key, line: line)
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .integer(try parseInteger(&cursor, key: key, line: line))
        default:
            let word = cursor.take { !ByteCursor.isBlank($0) && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "]") }
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            throw fail("strings must be quoted: write \(key) = \(ConfigValue.quoted(word))", line)
        }
    }

    private func parseBasicString(_ cursor: inout ByteCursor, key: String, line: Int) throws(ConfigurationError) -> String {
        cursor.advance()  // opening quote
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []  // raw UTF-8 bytes of non-escaped text, decoded in runs
        func flush() {
            scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
            pending.removeAll(keepingCapacity: true)
        }
        while let byte = cursor.peek {
            cursor.advance()
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                scalars.append(try parseEscape(&cursor, line: line))
            case 0..<0x20 where byte != UInt8(ascii: "\t"), 0x7F:
                throw fail("control character in the string for key '\(key)'; write it as an escape like \\n", line)
            default:
                pending.append(byte)
            }
        }
        throw fail("unterminated string for key '\(key)'; add the closing \"", line)
    }

    private func parseEscape(_ cursor: inout ByteCursor, line: Int) throws(ConfigurationError) -> Unicode.Scalar {
        guard let letter = cursor.peek else { throw fail("a string ends with a lone backslash; write \\\\ for a backslash", line) }
        cursor.advance()
        switch letter {
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            let hex = cursor.take(count: digits)
            guard hex.count == digits, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(letter)))\(hex)': expected \(digits) hex digits naming a Unicode scalar", line)
            }
            return scalar
        default:
            throw fail("invalid escape '\\\(Character(Unicode.Scalar(letter)))' in a string; valid escapes are \\\" \\\\ \\n \\t \\r \\b \\f \\uXXXX \\UXXXXXXXX", line)
        }
    }

    private func parseInteger(_ cursor: inout ByteCursor, key: String, line: Int) throws(ConfigurationError) -> Int {
        let word = cursor.take { !ByteCursor.isBlank($0) && $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "]") }
        var digits = Substring(word)
        var sign = ""
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            digits = digits.dropFirst()
        }
        if digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) && digits.first?.isNumber == true {
            throw fail("'\(word)' for key '\(key)' is not an integer; decimals are not supported", line)
        }
        if digits.hasPrefix("0x") || digits.hasPrefix("0o") || digits.hasPrefix("0b") {
            throw fail("'\(word)' for key '\(key)': only decimal integers are supported", line)
        }
        // TOML: underscores only between digits; no leading zeros.
        let parts = digits.split(separator: "_", omittingEmptySubsequences: false)
        guard !digits.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              !(digits.count > 1 && digits.first == "0")
        else {
            throw fail("'\(word)' for key '\(key)' is not a valid integer", line)
        }
        guard let number = Int(sign + parts.joined()) else {
            throw fail("'\(word)' for key '\(key)' is out of range", line)
        }
        return number
    }

    private func parseArray(_ cursor: inout ByteCursor, key: String, line: Int) throws(ConfigurationError) -> ConfigValue {
        cursor.advance()  // [
        var elements: [ConfigValue] = []
        while true {
            cursor.skipBlanks()
            guard let next = cursor.peek, next != UInt8(ascii: "#") else {
                throw fail("the list for key '\(key)' must close with ']' on the same line", line)
            }
            if next == UInt8(ascii: "]") {
                cursor.advance()
                return .array(elements)
            }
            elements.append(try parseValue(&cursor, key: key, line: line, allowArray: false))
            cursor.skipBlanks()
            if cursor.peek == UInt8(ascii: ",") {
                cursor.advance()
            } else if cursor.isAtEnd || cursor.peek == UInt8(ascii: "#") {
                throw fail("the list for key '\(key)' must close with ']' on the same line", line)
            } else if cursor.peek != UInt8(ascii: "]") {
                throw fail("expected ',' or ']' in the list for key '\(key)', found '\(cursor.restOfLine)'", line)
            }
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
