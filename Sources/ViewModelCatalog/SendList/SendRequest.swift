import JSONCore

/// What a client passes to SendList's `send`: nothing (`null`, or the value omitted), or
/// `{"key": "…"}` with an idempotency key the client chose.
///
/// **Idempotency.** A client that does not know whether a send was stored (the daemon died,
/// or the connection broke, before the answer came) sends it again with the same key: the
/// store stores an upload at most once per key, and a send whose key is already stored
/// answers with that first upload's id instead of storing it again (it still opens a receipt
/// scene for it). Keys are kept in the store file, so this holds across `kill -9` and
/// restarts. The same key with a different message or recipients fails with reason
/// `keyReused`: a key names one upload. Use a fresh random key (a UUID) per message.
public struct SendRequest: JSONConvertible, Sendable, Equatable {
    /// The client's idempotency key, or `nil` for a send that is never deduplicated.
    public var key: String?

    public init(key: String? = nil) {
        self.key = key
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        if json.isNull {
            key = nil
            return
        }
        let members = try JSONObjectDecoder(json)
        try members.rejectUnknownMembers(allowed: ["key"])
        key = try members.decode("key", as: String?.self)
    }

    public var jsonValue: JSONValue {
        guard let key else { return .null }
        return ["key": .string(key)]
    }

    /// An idempotency key: 1 to 128 characters.
    static var keySchema: JSONValue {
        [
            "type": "string", "minLength": 1, "maxLength": 128,
            "description": "An idempotency key the client chose: a send with a key already stored is answered with that upload instead of storing it again.",
        ]
    }

    public static var jsonSchema: JSONValue {
        [
            "description": "null (or omitted) to send; {\"key\": K} to send at most once per key K, also across daemon restarts: a retry with a stored key answers with the first upload's id.",
            "type": ["null", "object"],
            "properties": ["key": keySchema],
            "required": ["key"],
            "additionalProperties": false,
        ]
    }
}
