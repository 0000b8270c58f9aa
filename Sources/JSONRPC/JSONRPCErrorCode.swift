/// A JSON-RPC error code: an open set (a struct, not an enum) so that layers above add their
/// own codes without touching this module.
///
/// JSON-RPC reserves -32768…-32000: -32700 and -32600…-32603 are the standard errors,
/// -32099…-32000 is for implementation-defined server errors. LSP's -32800
/// (request cancelled) is included because vmd uses it. vmd's error table, names included,
/// is VMProtocol's `VMErrorCode`, which refers to these constants for the standard codes.
public struct JSONRPCErrorCode: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    /// Invalid JSON was received.
    public static let parseError = JSONRPCErrorCode(-32700)
    /// The JSON is not a valid request object.
    public static let invalidRequest = JSONRPCErrorCode(-32600)
    /// The method does not exist or is not available.
    public static let methodNotFound = JSONRPCErrorCode(-32601)
    /// Invalid method parameters.
    public static let invalidParams = JSONRPCErrorCode(-32602)
    /// Internal JSON-RPC error.
    public static let internalError = JSONRPCErrorCode(-32603)
    /// The request was cancelled (`$/cancelRequest`), as in LSP.
    public static let requestCancelled = JSONRPCErrorCode(-32800)

    /// The band JSON-RPC reserves for itself.
    public static let reservedRange = -32768 ... -32000
    /// The part of the reserved band left to implementations ("server error").
    public static let serverErrorRange = -32099 ... -32000

    public var description: String { String(rawValue) }
}
