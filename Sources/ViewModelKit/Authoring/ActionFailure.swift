import JSONCore
import ReactiveCore

/// An error that knows how to present itself when an action fails: `vm.execute` answers
/// `actionFailed` with `data.error = {message, …data}`. Services throw these so clients get
/// a sentence a person can read instead of a Swift type name.
public protocol PresentableError: Error {
    /// One sentence for a person ("Wrong email or password.").
    var message: String { get }
    /// Extra members for programs (`{"reason": "badCredentials"}`); `nil` for none.
    var data: JSONObject? { get }
}

extension PresentableError {
    public var data: JSONObject? { nil }
}

/// A ready-made ``PresentableError``: `throw ActionFailure("Wrong email or password.")`.
public struct ActionFailure: PresentableError, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let data: JSONObject?

    public init(_ message: String, data: JSONObject? = nil) {
        self.message = message
        self.data = data
    }

    public var description: String { message }
}

/// How any error reads when an action fails: a ``PresentableError``'s message, a kit error
/// as the wire error it would have been (a child that could not be created), else the
/// error's description.
func presentableMessage(of error: any Error) -> (message: String, data: JSONObject?) {
    if let kitError = error as? ViewModelError {
        return (kitError.message, kitError.data)
    }
    if let presentable = error as? any PresentableError {
        return (presentable.message, presentable.data)
    }
    return (String(describing: error), nil)
}

extension ActionError {
    /// The message of the work's error, for an event output like `loginFailure`; `nil` for
    /// `.notEnabled` (a refused execution is not a failure to show).
    public var failureMessage: String? {
        guard case .underlyingError(let error) = self else { return nil }
        return presentableMessage(of: error).message
    }
}
