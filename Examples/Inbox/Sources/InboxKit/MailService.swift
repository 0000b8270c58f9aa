/// What ``Inbox`` needs from the outside world: the messages of a folder.
///
/// Injected when the type is registered (`types.register(Inbox.self, services: ...)`), so
/// tests and other apps swap it. Called from `async` work off the daemon's loop; the
/// result hops back onto the inbox's scheduler. Implementations should honour task
/// cancellation: an inbox cancels a sync that timed out or that its client gave up on.
public protocol MailService: Sendable {
    /// At most `limit` messages of `folder`, newest first. Throws when the server cannot
    /// answer; a `PresentableError` (such as `ActionFailure`) gives clients a sentence to show.
    func messages(in folder: String, limit: Int) async throws -> [Message]
}
