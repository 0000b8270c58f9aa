/// Why an ``Action`` execution failed.
public enum ActionError: Error, CustomStringConvertible {
    /// `execute` was called while the action was disabled or already executing.
    case notEnabled
    /// A newer execution of a ``ActionStrategy/latest`` action cancelled this one.
    case superseded
    /// The work failed with this error.
    case underlyingError(any Error)

    /// The work's error, for `.underlyingError`.
    public var underlying: (any Error)? {
        if case .underlyingError(let error) = self { return error }
        return nil
    }

    public var description: String {
        switch self {
        case .notEnabled: return "notEnabled"
        case .superseded: return "superseded"
        case .underlyingError(let error): return "underlyingError(\(error))"
        }
    }
}

extension ActionError: Equatable {
    /// `.notEnabled` equals itself; underlying errors compare like ``Event``'s errors.
    public static func == (lhs: ActionError, rhs: ActionError) -> Bool {
        switch (lhs, rhs) {
        case (.notEnabled, .notEnabled), (.superseded, .superseded): return true
        case (.underlyingError(let left), .underlyingError(let right)): return errorsAreEqual(left, right)
        default: return false
        }
    }
}
