import JSONCore

/// A service call made with ``ViewModelContext/call(after:timeout:file:line:_:)`` or an action made
/// with ``ViewModelContext/action(enabledIf:after:timeout:file:line:_:)`` took longer than its
/// `timeout` (measured on the instance's scheduler); its task was cancelled.
///
/// `vm.execute` answers `actionFailed` with `data.error = {"message": …, "timeoutMs": …}`.
public struct ViewModelTimeoutError: PresentableError, Sendable, Equatable, CustomStringConvertible {
    /// The timeout that passed.
    public let timeout: Duration

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public var message: String { "The service did not answer within \(milliseconds) ms." }

    public var data: JSONObject? { ["timeoutMs": .integer(milliseconds)] }

    public var description: String { message }

    private var milliseconds: Int64 {
        let (seconds, attoseconds) = timeout.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
