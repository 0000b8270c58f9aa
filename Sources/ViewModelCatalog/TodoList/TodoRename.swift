import JSONCore

/// The value of ``TodoList``'s `rename` input: `{"id": 3, "title": "Call Bob"}`.
public struct TodoRename: JSONConvertible, Sendable, Hashable {
    /// The item to rename.
    public var id: Int
    /// Its new title.
    public var title: String

    /// Renames item `id` to `title`.
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    /// Reads `{"id", "title"}`; other members are refused.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        try members.rejectUnknownMembers(allowed: ["id", "title"])
        id = try members.decode("id")
        title = try members.decode("title")
    }

    /// `{"id", "title"}`.
    public var jsonValue: JSONValue { ["id": .integer(Int64(id)), "title": .string(title)] }

    /// An object of exactly `id` (integer) and `title` (string).
    public static var jsonSchema: JSONValue {
        [
            "type": "object",
            "properties": ["id": ["type": "integer"], "title": ["type": "string"]],
            "required": ["id", "title"],
            "additionalProperties": false,
        ]
    }
}
