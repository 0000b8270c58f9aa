/// An example invocation shown in help: the command line and what it does.
public struct CommandExample: Sendable, Hashable {
    /// The full command line as a user types it, e.g. `vmctl get login-1 isValid`.
    public var commandLine: String
    /// One sentence saying what the example does.
    public var explanation: String

    /// Creates an example.
    public init(_ commandLine: String, _ explanation: String) {
        self.commandLine = commandLine
        self.explanation = explanation
    }
}
