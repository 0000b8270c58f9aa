/// What ``Follow`` needs from the outside world: reading and changing whether the user
/// follows someone.
///
/// Each Follow instance gets its own service from a ``FollowServiceFactory`` called with
/// the instance's creation arguments, so the built-in in-memory service can honour
/// `initial` and `failEvery`; tests inject scripted ones.
public protocol FollowService: Sendable {
    /// Whether `userId` is followed now.
    func isFollowing(userId: String) async throws -> Bool
    /// Asks to follow (`true`) or unfollow `userId`; returns the state the service now holds.
    func setFollowing(_ following: Bool, userId: String) async throws -> Bool
}

/// Makes the ``FollowService`` of one Follow instance from its creation arguments.
public typealias FollowServiceFactory = @Sendable (Follow.Arguments) -> any FollowService
