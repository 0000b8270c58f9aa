/// Why the daemon could not start, as one sentence a person can act on.
package struct StartupError: Error, CustomStringConvertible, Sendable {
    package let description: String
    /// Another daemon answers on the socket path.
    package let isAlreadyRunning: Bool

    package init(_ description: String, isAlreadyRunning: Bool) {
        self.description = description
        self.isAlreadyRunning = isAlreadyRunning
    }
}
