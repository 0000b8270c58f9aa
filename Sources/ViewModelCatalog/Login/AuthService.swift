/// What ``Login`` needs from the outside world: checking an email and a password.
///
/// Injected when the type is registered (``CatalogServices/auth``), so tests and embedders
/// swap it. Called from `async` work off the daemon's loop; the result hops back.
public protocol AuthService: Sendable {
    /// The signed-in user's name for display (the built-in service returns the email), or a
    /// `PresentableError` whose message a person can read ("Wrong email or password.").
    func signIn(email: String, password: String) async throws -> String
}
