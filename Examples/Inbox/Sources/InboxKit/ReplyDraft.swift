import JSONCore

/// A reply being written to a message: `{"text": "Thanks, ", "cursor": 8}` on the wire.
///
/// A client sends one to ``MessageRow``'s `editReply` on every keystroke and reads it back
/// from its `reply` state (another window of the same person shows the same draft), so it
/// crosses the wire far more often than anything else in the inbox. That is why it is
/// hand-written rather than `Codable`, and why it also reads and writes its own bytes
/// (ReplyDraft+Bytes.swift).
public struct ReplyDraft: JSONConvertible, Sendable, Equatable {
    /// What has been written so far.
    public var text: String
    /// Where the caret is, in characters of `text` from its start (never negative).
    public var cursor: Int

    /// A draft; the empty one (nothing written, the caret at the start) by default.
    public init(text: String = "", cursor: Int = 0) {
        self.text = text
        self.cursor = cursor
    }

    /// Reads `{"text", "cursor"}`: both required, no other member, `cursor` at least 0.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        try members.rejectUnknownMembers(allowed: Self.memberNames)
        text = try members.decode("text")
        cursor = try members.decode("cursor")
        guard cursor >= 0 else {
            throw JSONDecodingError(path: JSONPath([.key("cursor")]), expected: "an integer of at least 0", got: String(cursor))
        }
    }

    /// The members a draft has.
    private static let memberNames = ["text", "cursor"]

    /// `{"text", "cursor"}`, in that order.
    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: 2)
        object.append(uniqueKey: "text", .string(text))
        object.append(uniqueKey: "cursor", .integer(Int64(cursor)))
        return .object(object)
    }

    /// An object of exactly `text` (a string) and `cursor` (an integer of at least 0).
    public static var jsonSchema: JSONValue {
        [
            "type": "object",
            "properties": ["text": ["type": "string"], "cursor": ["type": "integer", "minimum": 0]],
            "required": ["text", "cursor"],
            "additionalProperties": false,
        ]
    }

    /// This draft with its caret inside its text: a caret past the end reads as the end.
    public var clamped: ReplyDraft {
        ReplyDraft(text: text, cursor: min(cursor, text.count))
    }
}
