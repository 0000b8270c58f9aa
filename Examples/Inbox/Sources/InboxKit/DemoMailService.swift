import ViewModelKit

/// The mail server `inboxd` uses: a few fixed messages in the folder `inbox`, answered
/// after a short pause like a network would. Any other folder fails with a sentence a
/// person can read, so a client sees the failure path too.
public struct DemoMailService: MailService {
    /// The messages of the folder `inbox`, newest first.
    public static let inbox: [Message] = [
        Message(id: "m3", from: "ada@example.com", subject: "Notes on the analytical engine"),
        Message(id: "m2", from: "grace@example.com", subject: "A moth in relay 70"),
        Message(id: "m1", from: "alan@example.com", subject: "On computable numbers", isRead: true),
    ]

    /// How long the server takes to answer.
    public var latency: Duration

    public init(latency: Duration = .milliseconds(200)) {
        self.latency = latency
    }

    public func messages(in folder: String, limit: Int) async throws -> [Message] {
        try await Task.sleep(for: latency)
        guard folder == "inbox" else {
            throw ActionFailure("There is no folder named \(folder).")
        }
        return Array(Self.inbox.prefix(max(0, limit)))
    }
}
