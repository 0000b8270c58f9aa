import JSONCore

/// A call that expects a reply.
package struct JSONRPCRequest: Sendable, Hashable {
    package var id: RequestID
    package var method: String
    /// An object or an array, or `nil` when the request had no `params`.
    package var params: JSONValue?

    package init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A call that is never answered (no `id` member).
package struct JSONRPCNotification: Sendable, Hashable {
    package var method: String
    /// An object or an array, or `nil` when the notification had no `params`.
    package var params: JSONValue?

    package init(method: String, params: JSONValue? = nil) {
        self.method = method
        self.params = params
    }
}

/// A reply: the request's id with either a result or an error.
package struct JSONRPCResponse: Sendable, Hashable {
    package var id: RequestID
    package var outcome: Result<JSONValue, JSONRPCError>

    package init(id: RequestID, outcome: Result<JSONValue, JSONRPCError>) {
        self.id = id
        self.outcome = outcome
    }

    package init(id: RequestID, result: JSONValue) { self.init(id: id, outcome: .success(result)) }
    package init(id: RequestID, error: JSONRPCError) { self.init(id: id, outcome: .failure(error)) }
}

/// Any one JSON-RPC 2.0 message.
package enum JSONRPCMessage: Sendable, Hashable {
    case request(JSONRPCRequest)
    case notification(JSONRPCNotification)
    case response(JSONRPCResponse)

    /// The method of a request or notification.
    package var method: String? {
        switch self {
        case .request(let request): return request.method
        case .notification(let notification): return notification.method
        case .response: return nil
        }
    }
}
