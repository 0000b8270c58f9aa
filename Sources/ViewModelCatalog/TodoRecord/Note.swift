/// The record of a ``TodoRecord``: `{"id": 1, "title": "Buy milk", "done": false}` on the wire,
/// exactly as a ``TodoItem`` reads, but `Codable`: its schema is derived and its values go
/// through the kit's `Codable` coders, the way the README teaches authors to write records.
public struct Note: Codable, Sendable, Equatable {
    /// The note's number.
    public var id: Int
    /// What it says.
    public var title: String
    /// Whether it is done.
    public var done: Bool

    /// A note.
    public init(id: Int, title: String, done: Bool) {
        self.id = id
        self.title = title
        self.done = done
    }
}
