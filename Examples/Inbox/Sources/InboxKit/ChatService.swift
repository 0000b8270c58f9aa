/// What ``Chat`` needs from a chat server: a search over the conversation and a send.
///
/// Called from `async` work off the daemon's loop. Implementations should honour task
/// cancellation: a chat cancels the search a newer query replaced and a send that timed out.
public protocol ChatService: Sendable {
    /// The messages of the conversation containing `query`, oldest first.
    func search(_ query: String) async throws -> [String]
    /// Sends `text`; returns the id the server gave the message. Throws when it cannot; a
    /// `PresentableError` (such as `ActionFailure`) gives clients a sentence to show.
    func send(_ text: String) async throws -> String
}
