/// Why a byte sequence is not acceptable JSON, and where.
///
/// `description` reads like "expected ',' or '}' after object member at byte 17":
/// the message first, then the zero-based byte offset of the offending byte (for
/// an unexpected end of input, the input's length).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad class of the problem, for programs; ``message`` is for people.
    public enum Kind: String, Sendable, Hashable {
        /// The input ended inside a value (or was empty).
        case unexpectedEnd
        /// A byte that cannot appear here in JSON's grammar.
        case unexpectedByte
        /// A malformed number (leading zero, missing digits, out of range).
        case invalidNumber
        /// A backslash escape that JSON does not define, or a malformed `\u` escape.
        case invalidEscape
        /// An unpaired UTF-16 surrogate in a `\u` escape.
        case loneSurrogate
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// An unescaped control character (U+0000…U+001F) inside a string.
        case controlCharacter
        /// Arrays/objects nested deeper than the configured maximum.
        case tooDeep
        /// An object key repeated while ``JSONParseOptions/DuplicateKeyPolicy/reject`` is in force.
        case duplicateKey
        /// Something other than whitespace follows the top-level value.
        case trailingData
    }

    /// The class of the problem.
    public let kind: Kind
    /// Zero-based byte offset where the problem was found.
    public let offset: Int
    /// What was wrong, without the position ("expected ':' after object key").
    public let message: String

    public init(_ kind: Kind, _ message: String, at offset: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}
