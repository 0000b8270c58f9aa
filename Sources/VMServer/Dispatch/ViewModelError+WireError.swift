import JSONCore
import VMProtocol
import ViewModelKit

/// The kit's errors carry their message and data already (PROTOCOL.md §10); their code comes
/// from an exhaustive `switch`, so a new kit error does not compile until it has one, and
/// `data.name` comes from the same table entry as the code.
extension ViewModelError: WireErrorConvertible {
    /// The table entry of this error.
    package var wireCode: VMErrorCode {
        switch self {
        case .unknownType: .unknownType
        case .unknownInstance: .unknownInstance
        case .unknownInput: .unknownInput
        case .unknownOutput: .unknownOutput
        case .unknownAction: .unknownAction
        case .invalidValue: .invalidValue
        case .actionNotEnabled: .actionNotEnabled
        case .actionSuperseded: .actionSuperseded
        case .actionFailed: .actionFailed
        case .instanceExists: .instanceExists
        case .notStateOutput: .notStateOutput
        case .limitReached: .limitReached
        }
    }

    package var wireError: WireError {
        WireError(code: wireCode, message: message, extra: data)
    }
}
