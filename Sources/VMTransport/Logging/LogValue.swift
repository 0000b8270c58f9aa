/// One structured field value of a log line.
public enum LogValue: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByStringInterpolation
{
    case string(String)
    case integer(Int64)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(_ value: some BinaryInteger) { self = .integer(Int64(clamping: value)) }

    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        }
    }
}
