/// An example invocation shown in help: the command line and what it does.
package struct CommandExample: Sendable, Hashable {
    /// The full command line as a user types it, e.g. `vmctl get login-1 isValid`.
    package var commandLine: String
    /// One sentence saying what the example does.
    package var explanation: String

    /// Creates an example.
    package init(_ commandLine: String, _ explanation: String) {
        self.commandLine = commandLine
        self.explanation = explanation
    }
}
