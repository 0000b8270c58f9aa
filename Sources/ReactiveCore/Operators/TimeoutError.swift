/// The error ``ObservableType/timeout(_:scheduler:)`` ends a sequence with when no element
/// arrived within its due time.
public struct TimeoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How long the operator waited.
    public let dueTime: Duration

    public init(dueTime: Duration) {
        self.dueTime = dueTime
    }

    public var description: String { "no element within \(dueTime)" }
}
