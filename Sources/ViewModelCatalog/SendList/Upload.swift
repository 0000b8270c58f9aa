import JSONCore

/// One stored send: what ``SendList`` uploaded, with the id the store gave it.
///
/// Its JSON form is also the store file's record format, one per line:
/// `{"id":1,"message":"Hello","recipients":["ada@example.com"]}`.
public struct Upload: JSONConvertible, Sendable, Equatable {
    /// Unique within a store, counting from 1, never reused (also across restarts).
    public let id: Int
    /// The message, as typed.
    public let message: String
    /// The recipients, trimmed, in the order they were added.
    public let recipients: [String]

    public init(id: Int, message: String, recipients: [String]) {
        self.id = id
        self.message = message
        self.recipients = recipients
    }

    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        id = try members.decode("id")
        message = try members.decode("message")
        recipients = try members.decode("recipients")
    }

    public var jsonValue: JSONValue {
        ["id": id.jsonValue, "message": .string(message), "recipients": recipients.jsonValue]
    }

    public static var jsonSchema: JSONValue {
        JSONSchemaBuilder.object(
            [
                "id": ["type": "integer", "minimum": 1],
                "message": ["type": "string"],
                "recipients": JSONSchemaBuilder.array(of: ["type": "string"]),
            ],
            required: ["id", "message", "recipients"])
    }
}
