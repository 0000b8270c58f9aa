import JSONRPC

/// The one table of the errors vmd sends: each case is an `error.data.name` (its raw value,
/// spelled once, by the case), and ``number`` is its `error.code`, written once below.
/// JSON-RPC's standard codes are JSONRPC's (``JSONRPCErrorCode``); the cases here refer to
/// them instead of repeating their numbers.
///
/// Bands (PROTOCOL.md §10):
/// - -32768…-32000 is JSON-RPC's reserved band: -32700 and -32600…-32603 are its standard
///   errors.
/// - -32800 is LSP's `RequestCancelled` (just below the reserved band), which vmd borrows for
///   `$/cancelRequest` as LSP clients expect.
/// - -31099…-31000 is vmd's application band, deliberately outside the reserved one.
///
/// A closed enum: a daemon sends only these. A client that meets a newer daemon's code keeps
/// the number and finds no case for it (``init(number:)`` is `nil`; PROTOCOL.md §14: handle an
/// unknown code by its message).
public enum VMErrorCode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // MARK: JSON-RPC's standard errors, and LSP's cancellation

    /// The frame is not valid JSON or UTF-8; a malformed LSP header.
    case parseError
    /// Not a JSON-RPC 2.0 request or notification; an empty batch.
    case invalidRequest
    /// No such method.
    case methodNotFound
    /// Params not an object; a param missing, of the wrong type, or unknown.
    case invalidParams
    /// A bug in the daemon.
    case internalError
    /// LSP's: `$/cancelRequest` cancelled this `vm.execute`.
    case requestCancelled

    // MARK: vmd's application band, -31099…-31000

    /// A type the daemon does not serve.
    case unknownType
    /// No live instance with that id.
    case unknownInstance
    /// The type has no such input.
    case unknownInput
    /// The type has no such output.
    case unknownOutput
    /// The type has no such action.
    case unknownAction
    /// A value does not match its schema.
    case invalidValue
    /// The action is disabled now, or already running.
    case actionNotEnabled
    /// The action ran and failed.
    case actionFailed
    /// `timeoutMs` expired; the execution was cancelled.
    case actionTimedOut
    /// A limit would be exceeded.
    case limitReached
    /// `vm.create` with an id already in use.
    case instanceExists
    /// No such subscription or monitor on this connection.
    case unknownSubscription
    /// `vm.get` of an event output.
    case notStateOutput
    /// The daemon is stopping.
    case shuttingDown
    /// A same-user-only method called by a peer of another uid.
    case permissionDenied
    /// `session.resume` with a token that is unknown, expired, closed or another uid's.
    case unknownSession
    /// A newer `vm.execute` of the same `latest` action cancelled this one.
    case actionSuperseded
    /// `vm.tape` of an instance created without `record`.
    case notRecording

    /// `error.code`: the one place each number is written.
    public var jsonRPCCode: JSONRPCErrorCode {
        switch self {
        case .parseError: .parseError
        case .invalidRequest: .invalidRequest
        case .methodNotFound: .methodNotFound
        case .invalidParams: .invalidParams
        case .internalError: .internalError
        case .requestCancelled: .requestCancelled
        case .unknownType: -31001
        case .unknownInstance: -31002
        case .unknownInput: -31003
        case .unknownOutput: -31004
        case .unknownAction: -31005
        case .invalidValue: -31006
        case .actionNotEnabled: -31007
        case .actionFailed: -31008
        case .actionTimedOut: -31009
        case .limitReached: -31010
        case .instanceExists: -31011
        case .unknownSubscription: -31012
        case .notStateOutput: -31013
        case .shuttingDown: -31014
        case .permissionDenied: -31015
        case .unknownSession: -31016
        case .actionSuperseded: -31017
        case .notRecording: -31018
        }
    }

    /// `error.code` as a number (`-31002` for ``unknownInstance``).
    public var number: Int { jsonRPCCode.rawValue }

    /// `error.data.name`, the symbolic name (`"unknownInstance"`).
    public var name: String { rawValue }

    /// The case of symbolic name `name`, if this revision has it.
    public init?(name: String) { self.init(rawValue: name) }

    /// The case whose ``number`` is `number`; `nil` for a code this revision does not know.
    public init?(number: Int) {
        guard let code = Self.byNumber[number] else { return nil }
        self = code
    }

    private static let byNumber: [Int: VMErrorCode] = Dictionary(
        allCases.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })

    /// The band JSON-RPC reserves for itself.
    package static let reservedRange = JSONRPCErrorCode.reservedRange
    /// vmd's application band.
    package static let applicationRange = -31099 ... -31000

    public var description: String { "\(number) (\(name))" }
}
