/// A JSON Pointer (RFC 6901): the path syntax JSON Patch operations address values with.
///
/// `""` is the whole document, `/items/3/done` the member `done` of the fourth element of
/// `items`. In a reference token `~` is written `~0` and `/` is written `~1`.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    public var tokens: [String]

    /// The whole document.
    public static let root = JSONPointer(tokens: [])

    /// A pointer over already unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the textual form; throws when it does not start with `/` (and is not empty)
    /// or holds a `~` not followed by `0` or `1`.
    public init(parsing text: String) throws(JSONPatchError) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        var tokens: [String] = []
        var current: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "/") else {
            throw JSONPatchError(reason: .invalidPointer(text, "a pointer starts with \"/\""))
        }
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"):
                tokens.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            case UInt8(ascii: "~"):
                switch bytes.next() {
                case UInt8(ascii: "0"): current.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): current.append(UInt8(ascii: "/"))
                default: throw JSONPatchError(reason: .invalidPointer(text, "\"~\" must be followed by 0 or 1"))
                }
            default:
                current.append(byte)
            }
        }
        tokens.append(String(decoding: current, as: UTF8.self))
        self.tokens = tokens
    }

    /// This pointer extended by one member name or array index.
    public func appending(_ token: String) -> JSONPointer { JSONPointer(tokens: tokens + [token]) }

    /// This pointer extended by one array index.
    public func appending(index: Int) -> JSONPointer { appending(String(index)) }

    /// Whether `self` is `other` or lies inside it.
    public func hasPrefix(_ other: JSONPointer) -> Bool {
        other.tokens.count <= tokens.count && Array(tokens.prefix(other.tokens.count)) == other.tokens
    }

    /// The escaped textual form, e.g. `/a~1b/0`.
    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            for character in token.unicodeScalars {
                switch character {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    /// The array index a token stands for: digits without a leading zero (`-` is handled by callers).
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, utf8.count <= 18 else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
