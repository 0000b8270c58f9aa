import JSONCore

/// One element of a received frame: a valid message, or an invalid one that still deserves
/// an error reply (with the id, when one could be read).
package enum JSONRPCEntry: Sendable, Hashable {
    case message(JSONRPCMessage)
    /// Reply with `error` (always -32600) and `id` (`.null` when no id could be read).
    case invalid(id: RequestID, error: JSONRPCError)
}

/// What one received frame holds, classified by JSON-RPC 2.0's rules.
package enum JSONRPCFrame: Sendable, Hashable {
    /// A single message (an object, or any other non-array JSON value, which is invalid).
    case single(JSONRPCEntry)
    /// A non-empty batch, in order.
    case batch([JSONRPCEntry])
    /// The frame as a whole is rejected: not JSON (-32700) or an empty batch (-32600).
    /// Reply with one error response whose id is `null`.
    case rejected(JSONRPCError)
}
