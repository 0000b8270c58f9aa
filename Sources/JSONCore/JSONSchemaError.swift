/// Why a JSON value is not a schema this validator can use.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the schema document the problem is.
    public let path: JSONPath
    /// What is wrong.
    public let message: String

    public init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "invalid schema at \(path): \(message)" }
}
