/// Why the daemon could not start, as one sentence a person can act on.
public struct StartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// Another daemon answers on the socket path.
    public let isAlreadyRunning: Bool

    public init(_ description: String, isAlreadyRunning: Bool) {
        self.description = description
        self.isAlreadyRunning = isAlreadyRunning
    }
}
