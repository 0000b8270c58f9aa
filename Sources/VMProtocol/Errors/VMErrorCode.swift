import JSONRPC

/// An `error.code` vmd sends, with its symbolic name (`error.data.name`).
///
/// An open set: a struct with static constants, not a closed enum, so a newer daemon's codes
/// are still representable (PROTOCOL.md §14: clients handle an unknown code by its message).
///
/// Bands (PROTOCOL.md §10):
/// - -32768…-32000 is JSON-RPC's reserved band: -32700 and -32600…-32603 are its standard
///   errors.
/// - -32800 is LSP's `RequestCancelled` (just below the reserved band), which vmd borrows for
///   `$/cancelRequest` as LSP clients expect.
/// - -31099…-31000 is vmd's application band, deliberately outside the reserved one.
public struct VMErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    // MARK: JSON-RPC's standard errors, and LSP's cancellation

    /// -32700: the frame is not valid JSON or UTF-8; a malformed LSP header.
    public static let parseError = VMErrorCode(rawValue: -32700)
    /// -32600: not a JSON-RPC 2.0 request or notification; an empty batch.
    public static let invalidRequest = VMErrorCode(rawValue: -32600)
    /// -32601: no such method.
    public static let methodNotFound = VMErrorCode(rawValue: -32601)
    /// -32602: params not an object; a param missing, of the wrong type, or unknown.
    public static let invalidParams = VMErrorCode(rawValue: -32602)
    /// -32603: a bug in the daemon.
    public static let internalError = VMErrorCode(rawValue: -32603)
    /// -32800 (LSP's): `$/cancelRequest` cancelled this `vm.execute`.
    public static let requestCancelled = VMErrorCode(rawValue: -32800)

    // MARK: vmd's application band, -31099…-31000

    /// -31001: a type the daemon does not serve.
    public static let unknownType = VMErrorCode(rawValue: -31001)
    /// -31002: no live instance with that id.
    public static let unknownInstance = VMErrorCode(rawValue: -31002)
    /// -31003: the type has no such input.
    public static let unknownInput = VMErrorCode(rawValue: -31003)
    /// -31004: the type has no such output.
    public static let unknownOutput = VMErrorCode(rawValue: -31004)
    /// -31005: the type has no such action.
    public static let unknownAction = VMErrorCode(rawValue: -31005)
    /// -31006: a value does not match its schema.
    public static let invalidValue = VMErrorCode(rawValue: -31006)
    /// -31007: the action is disabled now, or already running.
    public static let actionNotEnabled = VMErrorCode(rawValue: -31007)
    /// -31008: the action ran and failed.
    public static let actionFailed = VMErrorCode(rawValue: -31008)
    /// -31009: `timeoutMs` expired; the execution was cancelled.
    public static let actionTimedOut = VMErrorCode(rawValue: -31009)
    /// -31010: a limit would be exceeded.
    public static let limitReached = VMErrorCode(rawValue: -31010)
    /// -31011: `vm.create` with an id already in use.
    public static let instanceExists = VMErrorCode(rawValue: -31011)
    /// -31012: no such subscription or monitor on this connection.
    public static let unknownSubscription = VMErrorCode(rawValue: -31012)
    /// -31013: `vm.get` of an event output.
    public static let notStateOutput = VMErrorCode(rawValue: -31013)
    /// -31014: the daemon is stopping.
    public static let shuttingDown = VMErrorCode(rawValue: -31014)
    /// -31015: a same-user-only method called by a peer of another uid.
    public static let permissionDenied = VMErrorCode(rawValue: -31015)
    /// -31016: `session.resume` with a token that is unknown, expired, closed or another uid's.
    public static let unknownSession = VMErrorCode(rawValue: -31016)

    /// The band JSON-RPC reserves for itself.
    public static let reservedRange = -32768 ... -32000
    /// vmd's application band.
    public static let applicationRange = -31099 ... -31000

    /// Every code vmd sends in this revision, in PROTOCOL.md §10's order.
    public static let all: [VMErrorCode] = [
        .parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError, .requestCancelled,
        .unknownType, .unknownInstance, .unknownInput, .unknownOutput, .unknownAction, .invalidValue,
        .actionNotEnabled, .actionFailed, .actionTimedOut, .limitReached, .instanceExists,
        .unknownSubscription, .notStateOutput, .shuttingDown, .permissionDenied,
        .unknownSession,
    ]

    /// The code of symbolic name `name` (`"unknownInstance"` → -31002), if this revision has it.
    public init?(name: String) {
        guard let code = VMErrorCode.all.first(where: { $0.name == name }) else { return nil }
        self = code
    }

    /// The symbolic name (`error.data.name`); `nil` for a code this revision does not know.
    public var name: String? {
        switch rawValue {
        case -32700: "parseError"
        case -32600: "invalidRequest"
        case -32601: "methodNotFound"
        case -32602: "invalidParams"
        case -32603: "internalError"
        case -32800: "requestCancelled"
        case -31001: "unknownType"
        case -31002: "unknownInstance"
        case -31003: "unknownInput"
        case -31004: "unknownOutput"
        case -31005: "unknownAction"
        case -31006: "invalidValue"
        case -31007: "actionNotEnabled"
        case -31008: "actionFailed"
        case -31009: "actionTimedOut"
        case -31010: "limitReached"
        case -31011: "instanceExists"
        case -31012: "unknownSubscription"
        case -31013: "notStateOutput"
        case -31014: "shuttingDown"
        case -31015: "permissionDenied"
        case -31016: "unknownSession"
        default: nil
        }
    }

    /// The same code as JSONRPC's type.
    public var jsonRPCCode: JSONRPCErrorCode { JSONRPCErrorCode(rawValue) }

    public var description: String { name.map { "\(rawValue) (\($0))" } ?? String(rawValue) }
}
