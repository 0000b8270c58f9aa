import JSONCore

/// Everything a ``VMClient`` or ``VMBlockingConnection`` call can fail with.
///
/// Only ``remote(_:)`` means the daemon answered; every other case means no answer came,
/// which is why callers (vmctl's exit codes) tell them apart.
public enum VMClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The daemon answered the call with an error.
    case remote(VMRemoteError)
    /// Nobody answers at the socket path (no file, or a file nobody listens on).
    case cannotConnect(path: String, reason: String)
    /// The socket path cannot be used at all (too long for `sun_path`, or empty).
    case invalidSocketPath(path: String, reason: String)
    /// The connection ended before the answer came (the daemon stopped or dropped us).
    case disconnected(reason: String)
    /// The caller closed this client.
    case closed
    /// No answer within the caller's timeout.
    case timedOut
    /// The daemon sent something this client cannot read as the protocol says.
    case protocolViolation(String)
    /// The daemon speaks another protocol level than this client (level 1).
    case unsupportedProtocolLevel(Int)

    /// The daemon's error, when it answered with one.
    public var remote: VMRemoteError? {
        if case .remote(let error) = self { return error }
        return nil
    }

    /// True when the failure means no daemon could be reached (vmctl's exit status 3).
    public var isUnreachable: Bool {
        switch self {
        case .cannotConnect, .invalidSocketPath, .disconnected, .timedOut: return true
        case .remote, .closed, .protocolViolation, .unsupportedProtocolLevel: return false
        }
    }

    public var description: String {
        switch self {
        case .remote(let error): return error.description
        case .cannotConnect(let path, let reason): return "cannot reach vmd at \(path): \(reason)"
        case .invalidSocketPath(let path, let reason): return "cannot use socket path \(path): \(reason)"
        case .disconnected(let reason): return "the connection to vmd ended: \(reason)"
        case .closed: return "the client was closed"
        case .timedOut: return "vmd did not answer in time"
        case .protocolViolation(let detail): return "vmd sent something unexpected: \(detail)"
        case .unsupportedProtocolLevel(let level):
            return "vmd speaks protocol level \(level); this client speaks level 1 (upgrade one of them)"
        }
    }
}
