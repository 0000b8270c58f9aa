import JSONCore
import VMProtocol
import ViewModelKit

/// The kit's errors carry their wire name, message and data already (PROTOCOL.md §10); the
/// code follows from the name. A name this revision does not know would be a kit bug: -32603.
extension ViewModelError: WireErrorConvertible {
    public var wireError: WireError {
        guard let code = VMErrorCode(name: name) else { return .internalError() }
        return WireError(code: code, message: message, data: data)
    }
}
