import Testing

/// A service member the test did not supply was called: records a test failure naming it,
/// and returns an error for the fake to throw, so that a test never passes by accident on a
/// service it forgot.
///
/// ```swift
/// struct FakeChat: ChatService {
///     var search: @Sendable (String) async throws -> [String] = { _ in throw unimplemented("ChatService.search") }
///     func search(_ query: String) async throws -> [String] { try await search(query) }
/// }
/// ```
public func unimplemented(_ member: String, sourceLocation: SourceLocation = #_sourceLocation) -> UnimplementedService {
    Issue.record("\(member) was called, but the test did not supply it", sourceLocation: sourceLocation)
    return UnimplementedService(member: member)
}

/// The error ``unimplemented(_:sourceLocation:)`` returns: `member` has no implementation in this test.
public struct UnimplementedService: Error, Equatable, CustomStringConvertible {
    /// The member called (`"ChatService.search"`).
    public let member: String

    /// The error for `member` (recording no failure: ``unimplemented(_:sourceLocation:)`` does).
    public init(member: String) {
        self.member = member
    }

    public var description: String { "\(member) is not implemented in this test" }
}
