import JSONCore
import ViewModelKit

/// The built-in ``FollowService``: a per-instance table in memory, with a switch to make
/// calls fail for demos and tests.
///
/// - Every user starts as `initial` (Follow's `initial` argument, default `true`, as in
///   the articles' example, where the first request answers "following").
/// - With `failEvery` N > 0, every Nth call (the initial load is call 1) fails with a
///   readable message and changes nothing: `failEvery: 2` makes the first toggle fail.
public actor InMemoryFollowService: FollowService {
    private let initial: Bool
    private let failEvery: Int
    private var following: [String: Bool] = [:]
    private var calls = 0

    public init(initial: Bool = true, failEvery: Int = 0) {
        self.initial = initial
        self.failEvery = failEvery
    }

    /// The factory vmd registers: one service per instance, from its arguments.
    public static let factory: FollowServiceFactory = { args in
        InMemoryFollowService(initial: args.initial, failEvery: args.failEvery)
    }

    public func isFollowing(userId: String) async throws -> Bool {
        try countCall()
        return following[userId] ?? initial
    }

    public func setFollowing(_ isFollowing: Bool, userId: String) async throws -> Bool {
        try countCall()
        following[userId] = isFollowing
        return isFollowing
    }

    private func countCall() throws(ActionFailure) {
        calls += 1
        guard failEvery > 0, calls % failEvery == 0 else { return }
        throw ActionFailure(
            "The follow service did not answer; try again. (Simulated: every \(failEvery) calls, one fails.)",
            data: ["reason": "simulatedFailure", "call": .integer(Int64(calls))])
    }
}
