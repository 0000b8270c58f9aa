/// One message of a mail folder, as the mail server lists it and as clients read it in
/// ``Inbox``'s `messages`.
///
/// A plain `Codable` struct: the kit derives its JSON Schema (an object with these four
/// required members, nothing else allowed) and its wire form, so no hand-written JSON.
public struct Message: Codable, Sendable, Equatable {
    /// The server's id for the message, stable across syncs.
    public var id: String
    /// Who sent it.
    public var from: String
    /// Its subject line.
    public var subject: String
    /// Whether it has been read.
    public var isRead: Bool

    public init(id: String, from: String, subject: String, isRead: Bool = false) {
        self.id = id
        self.from = from
        self.subject = subject
        self.isRead = isRead
    }
}
