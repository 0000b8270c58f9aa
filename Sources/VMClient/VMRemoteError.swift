import JSONCore
import JSONRPC
import VMProtocol

/// An error the daemon answered with: the JSON-RPC error object, kept whole.
///
/// `code` and `data` are what programs should look at (the message's wording may change);
/// ``name`` is `data.name`, the symbolic name vmd puts on every error (`"unknownInstance"`).
/// Codes this client does not know are kept as they came (the protocol may add codes).
public struct VMRemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON-RPC error code (`-31002` for unknownInstance).
    public let code: Int
    /// One sentence for a person, saying what to do.
    public let message: String
    /// The error's `data` member as sent (vmd always sends an object with `name`).
    public let data: JSONValue?

    /// Creates an error from its three members.
    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    init(_ error: JSONRPCError) {
        self.init(code: error.code.rawValue, message: error.message, data: error.data)
    }

    /// ``code`` as an entry of the protocol's error table: compare with `.unknownInstance`,
    /// `.invalidValue`, ...; `nil` for a code newer than this client.
    public var errorCode: VMErrorCode? { VMErrorCode(number: code) }

    /// `data.name`, the symbolic name of ``code`` (`"invalidValue"`), when present.
    public var name: String? { data?["name"]?.stringValue }

    /// The message followed by the symbolic name: `No instance "c9"; ... (unknownInstance)`.
    public var description: String {
        guard let name else { return "\(message) (code \(code))" }
        return "\(message) (\(name))"
    }
}
