import JSONCore

/// A call that expects a reply.
public struct JSONRPCRequest: Sendable, Hashable {
    public var id: RequestID
    public var method: String
    /// An object or an array, or `nil` when the request had no `params`.
    public var params: JSONValue?

    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A call that is never answered (no `id` member).
public struct JSONRPCNotification: Sendable, Hashable {
    public var method: String
    /// An object or an array, or `nil` when the notification had no `params`.
    public var params: JSONValue?

    public init(method: String, params: JSONValue? = nil) {
        self.method = method
        self.params = params
    }
}

/// A reply: the request's id with either a result or an error.
public struct JSONRPCResponse: Sendable, Hashable {
    public var id: RequestID
    public var outcome: Result<JSONValue, JSONRPCError>

    public init(id: RequestID, outcome: Result<JSONValue, JSONRPCError>) {
        self.id = id
        self.outcome = outcome
    }

    public init(id: RequestID, result: JSONValue) { self.init(id: id, outcome: .success(result)) }
    public init(id: RequestID, error: JSONRPCError) { self.init(id: id, outcome: .failure(error)) }
}

/// Any one JSON-RPC 2.0 message.
public enum JSONRPCMessage: Sendable, Hashable {
    case request(JSONRPCRequest)
    case notification(JSONRPCNotification)
    case response(JSONRPCResponse)

    /// The method of a request or notification.
    public var method: String? {
        switch self {
        case .request(let request): return request.method
        case .notification(let notification): return notification.method
        case .response: return nil
        }
    }
}
