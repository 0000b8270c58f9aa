import ViewModelKit

/// The built-in ``AuthService``: accepts one documented demo account and nothing else.
///
/// - email `demo@example.com`, password `secret`
///
/// It answers at once; the wait a user sees comes from Login's `latencyMs` creation
/// argument, applied on the instance's clock (see ``Login``).
public struct DemoAuthService: AuthService {
    /// The demo account's email.
    package static let email = "demo@example.com"
    /// The demo account's password (6 characters: the shortest Login allows).
    package static let password = "secret"

    public init() {}

    public func signIn(email: String, password: String) async throws -> String {
        guard email == Self.email, password == Self.password else {
            throw ActionFailure("Wrong email or password.", data: ["reason": "badCredentials"])
        }
        return email
    }
}
