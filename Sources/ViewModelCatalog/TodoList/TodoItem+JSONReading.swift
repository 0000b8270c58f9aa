import JSONCore

/// A sent item read straight from its bytes. It accepts exactly what `jsonSchema` (the three
/// members, each of its type, no other) and `init(json:)` accept: `done` is required here
/// because the schema, checked before `init(json:)` on the general path, requires it.
/// TodoItemReadingTests compares the two on many inputs.
extension TodoItem: JSONReadable {
    public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        var id: Int?, title: String?, done: Bool?
        try reader.readObject { key, reader throws(JSONDecodingError) in
            switch key {
            case "id" where id == nil: id = try reader.readInt()
            case "title" where title == nil: title = try reader.readString()
            case "done" where done == nil: done = try reader.readBool()
            default: throw JSONByteReader.unread
            }
        }
        guard let id, let title, let done else { throw JSONByteReader.unread }
        self.init(id: id, title: title, done: done)
    }
}
