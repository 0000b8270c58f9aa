/// Which ``MessageRow`` instance shows which message: ``Inbox``'s `rows`, so that a client
/// can drive a row (`vmctl send <instance> markRead`).
public struct MessageRowLink: Codable, Sendable, Equatable {
    /// The message's id.
    public var message: String
    /// The id of the `MessageRow` instance that shows it (a child of the inbox).
    public var instance: String

    public init(message: String, instance: String) {
        self.message = message
        self.instance = instance
    }
}
