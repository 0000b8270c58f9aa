import JSONCore

/// Finds the source text of a message's `"id"` member in a frame already known to be valid JSON.
///
/// Parsing turns a number into an `Int64` or a `Double`, which loses its spelling (`1.50`,
/// `1e3`). JSON-RPC asks for the id to be echoed, so for non-integer number ids the decoder
/// comes here for the original bytes. Because the frame was validated by the parser first,
/// this scanner only has to skip values, never to check them. With duplicate keys the last
/// `"id"` wins, as in the parsed value.
struct LiteralIDScanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    static func literalID(in bytes: UnsafeRawBufferPointer, batchIndex: Int?) -> String? {
        var scanner = LiteralIDScanner(bytes: bytes)
        return scanner.findID(batchIndex: batchIndex)
    }

    mutating func findID(batchIndex: Int?) -> String? {
        skipWhitespace()
        if let batchIndex {
            guard byte == UInt8(ascii: "[") else { return nil }
            position += 1
            for _ in 0..<batchIndex {
                skipWhitespace()
                skipValue()
                skipWhitespace()
                position += 1  // ','
            }
            skipWhitespace()
        }
        guard byte == UInt8(ascii: "{") else { return nil }
        position += 1
        var found: String? = nil
        while true {
            skipWhitespace()
            guard byte == UInt8(ascii: "\"") else { return found }  // '}' of an empty object
            let keyStart = position
            skipString()
            let key = try? JSONValue(parsing: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<position]))
            skipWhitespace()
            position += 1  // ':'
            skipWhitespace()
            let valueStart = position
            skipValue()
            if key == "id" {
                let text = UnsafeRawBufferPointer(rebasing: bytes[valueStart..<position])
                found = String(decoding: text, as: UTF8.self)
            }
            skipWhitespace()
            guard byte == UInt8(ascii: ",") else { return found }
            position += 1
        }
    }

    var byte: UInt8 { position < bytes.count ? bytes[position] : 0 }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Steps over a string, starting at its opening quote.
    mutating func skipString() {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""):
                position += 1
                return
            default: position += 1
            }
        }
    }

    /// Steps over any value: containers by counting brackets outside strings.
    mutating func skipValue() {
        switch byte {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    skipString()
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                default: break
                }
                position += 1
            }
        default:
            // A number or literal runs until a delimiter.
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: return
                default: position += 1
                }
            }
        }
    }
}
