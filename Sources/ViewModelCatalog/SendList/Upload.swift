import JSONCore

/// One stored send: what ``SendList`` uploaded, with the id the store gave it.
///
/// Its JSON form is also the store file's record format, one per line:
/// `{"id":1,"message":"Hello","recipients":["ada@example.com"]}`, with `"key"` when the
/// client gave an idempotency key (see ``SendRequest``).
public struct Upload: JSONConvertible, Sendable, Equatable {
    /// Unique within a store, counting from 1, never reused (also across restarts).
    public let id: Int
    /// The message, as typed.
    public let message: String
    /// The recipients, trimmed, in the order they were added.
    public let recipients: [String]
    /// The idempotency key the client sent it with, if any (see ``SendRequest``).
    public let key: String?

    public init(id: Int, message: String, recipients: [String], key: String? = nil) {
        self.id = id
        self.message = message
        self.recipients = recipients
        self.key = key
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        id = try members.decode("id")
        message = try members.decode("message")
        recipients = try members.decode("recipients")
        key = try members.decode("key", as: String?.self)
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = ["id": id.jsonValue, "message": .string(message), "recipients": recipients.jsonValue]
        if let key { object["key"] = .string(key) }
        return .object(object)
    }


    public static var jsonSchema: JSONValue {
        JSONSchemaBuilder.object(
            [
                "id": ["type": "integer", "minimum": 1],
                "message": ["type": "string"],
                "recipients": JSONSchemaBuilder.array(of: ["type": "string"]),
                "key": SendRequest.keySchema,
            ],
            required: ["id", "message", "recipients"])
    }
}
