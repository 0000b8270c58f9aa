import JSONCore

/// A JSON-RPC request id, echoed exactly as the client sent it.
///
/// Integer ids (the common case) are kept as `Int64`. Any other number id (`1.50`, `1e3`,
/// `12345678901234567890`) is kept as its literal source text, so the reply carries the
/// same bytes even where a parse-and-reprint would normalize them.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    /// A number id that is not a plain `Int64`, as its literal JSON text. The text must be a
    /// valid JSON number (the decoder only ever stores what it read).
    case numberLiteral(String)
    case null

    /// The id a JSON value stands for: a string, number or null; `nil` for anything else.
    /// A non-integer number is spelled in its shortest round-trip form.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .double(let number) where number.isFinite: self = .numberLiteral(value.encodedString())
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as a JSON value (a literal number becomes the double it denotes).
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .numberLiteral(let text): return (try? JSONValue(parsing: text)) ?? .null
        case .null: return .null
        }
    }

    /// Appends the id's JSON text, byte for byte as received.
    public func encode(into buffer: inout [UInt8]) {
        switch self {
        case .string(let text): JSONSerializer.appendString(text, to: &buffer)
        case .integer(let number): JSONSerializer.appendInteger(number, to: &buffer)
        case .numberLiteral(let text): buffer.append(contentsOf: text.utf8)
        case .null: buffer.append(contentsOf: "null".utf8)
        }
    }

    /// Whether `value` (say the `id` of a `$/cancelRequest`) denotes this id. Numbers compare
    /// by value, so `1.5` matches an id received as `1.50`.
    public func matches(_ value: JSONValue) -> Bool {
        switch self {
        case .string(let text): return value.stringValue == text
        case .null: return value.isNull
        case .integer, .numberLiteral: return value.isNumber && jsonValue == value
        }
    }

    /// The id's JSON text.
    public var description: String {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}
