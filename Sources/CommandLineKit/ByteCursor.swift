/// A read position in one line of UTF-8 bytes, for the config-file parser.
struct ByteCursor {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func advance() { index += 1 }

    func hasPrefix(_ text: String) -> Bool {
        let prefix = Array(text.utf8)
        return bytes.count - index >= prefix.count && Array(bytes[index..<index + prefix.count]) == prefix
    }

    /// The rest of the line as text (for messages).
    var restOfLine: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

    mutating func skipBlanks() {
        while let byte = peek, Self.isBlank(byte) { advance() }
    }

    /// Takes bytes while `predicate` holds and returns them as text.
    mutating func take(while predicate: (UInt8) -> Bool) -> String {
        let start = index
        while let byte = peek, predicate(byte) { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Takes up to `count` bytes and returns them as text.
    mutating func take(count: Int) -> String {
        let end = min(index + count, bytes.count)
        let text = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        return text
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
