/// One way a value fails a ``JSONSchema``: where, what was expected, what was found.
///
/// `description` reads "$.value.step: expected integer, got string".
public struct JSONSchemaViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the validated value the problem is (for a missing member: the member's path).
    public let path: JSONPath
    /// What the schema wanted there ("integer", "string of at most 64 characters").
    public let expected: String
    /// What the value had ("string", "missing", "-1").
    public let got: String
    /// The whole sentence, without the path.
    public let message: String

    public init(path: JSONPath, expected: String, got: String, message: String? = nil) {
        self.path = path
        self.expected = expected
        self.got = got
        self.message = message ?? "expected \(expected), got \(got)"
    }

    public var description: String { "\(path): \(message)" }

    /// The same problem as a decoding error (same path, expected, got).
    public var decodingError: JSONDecodingError {
        JSONDecodingError(path: path, expected: expected, got: got, detail: message == "expected \(expected), got \(got)" ? nil : message)
    }
}
