/// Why a ``JSONValue`` could not become a typed value, and where.
///
/// `path`, `expected` and `got` are meant for programs (vmd sends them as the `data` of an
/// invalid-value error); `description` reads
/// "$.value.step: expected integer, got string".
public struct JSONDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the decoded document the problem is.
    public var path: JSONPath
    /// What was expected there ("integer", "string or null", "object").
    public var expected: String
    /// What was found ("string", "null", "missing", or a short detail).
    public var got: String
    /// An optional extra sentence ("value 300 does not fit in Int8").
    public var detail: String?

    public init(path: JSONPath = .root, expected: String, got: String, detail: String? = nil) {
        self.path = path
        self.expected = expected
        self.got = got
        self.detail = detail
    }

    /// A type mismatch: expected `expected`, got the JSON type of `value`.
    public static func typeMismatch(expected: String, got value: JSONValue, at path: JSONPath = .root) -> JSONDecodingError {
        JSONDecodingError(path: path, expected: expected, got: value.typeName)
    }

    /// The same error seen from one level up (the container that held the failing value).
    public func prefixed(by outer: JSONPath.Component) -> JSONDecodingError {
        var copy = self
        copy.path = path.prefixed(by: outer)
        return copy
    }

    /// "expected integer, got string" (plus the detail, if any).
    public var message: String {
        let base = "expected \(expected), got \(got)"
        guard let detail else { return base }
        return base + " (" + detail + ")"
    }

    public var description: String { "\(path): \(message)" }
}
