import JSONCore

/// One entry of a ``TodoList``: `{"id": 1, "title": "Buy milk", "done": false}` on the wire.
///
/// Hand-written `JSONConvertible` rather than `Codable`: a whole-value subscriber has the
/// list encoded whole on every change, and a 10,000-item list is the benchmark's case.
/// `Identifiable` by `id`, so it lives in an `IdentifiedList`.
public struct TodoItem: JSONConvertible, Sendable, Hashable, Identifiable {
    /// Assigned by the list, never reused within one instance.
    public var id: Int
    /// What to do.
    public var title: String
    /// Whether it is done.
    public var done: Bool

    /// An item; `done` defaults to `false`.
    public init(id: Int, title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }

    /// Reads `{"id", "title", "done"?}`; other members are refused.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        try members.rejectUnknownMembers(allowed: Self.memberNames)
        id = try members.decode("id")
        title = try members.decode("title")
        done = try members.decode("done", default: false)
    }

    /// The members an item has, compared one by one (no set to build or hash per read).
    private static let memberNames = ["id", "title", "done"]

    /// `{"id", "title", "done"}`, in that order.
    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: 3)
        object.append(uniqueKey: "id", .integer(Int64(id)))
        object.append(uniqueKey: "title", .string(title))
        object.append(uniqueKey: "done", .bool(done))
        return .object(object)
    }

    /// An object of exactly `id` (integer), `title` (string) and `done` (boolean).
    public static var jsonSchema: JSONValue {
        [
            "type": "object",
            "properties": ["id": ["type": "integer"], "title": ["type": "string"], "done": ["type": "boolean"]],
            "required": ["id", "title", "done"],
            "additionalProperties": false,
        ]
    }
}
