/// One structured field value of a log line.
package enum LogValue: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByStringInterpolation
{
    case string(String)
    case integer(Int64)

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(_ value: some BinaryInteger) { self = .integer(Int64(clamping: value)) }

    package var description: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        }
    }
}
