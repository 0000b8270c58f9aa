import JSONCore

/// A draft read straight from the bytes of a `vm.send` to `editReply`, with no tree. It
/// accepts exactly what `jsonSchema` and `init(json:)` accept (both members, each once, of
/// its type, `cursor` at least 0) and throws `unread` on anything else, so the kit reads that
/// the general way and its error is the general path's. ReplyDraftBytesTests compares the
/// two on many inputs.
extension ReplyDraft: JSONReadable {
    public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        var text: String?, cursor: Int?
        try reader.readObject { key, reader throws(JSONDecodingError) in
            switch key {
            case "text" where text == nil: text = try reader.readString()
            case "cursor" where cursor == nil: cursor = try reader.readInt()
            default: throw JSONByteReader.unread
            }
        }
        guard let text, let cursor, cursor >= 0 else { throw JSONByteReader.unread }
        self.init(text: text, cursor: cursor)
    }
}

/// A draft written straight to bytes for `reply`'s whole-value subscriber and `vm.get`:
/// exactly the text `jsonValue` serializes to, its members in its order.
extension ReplyDraft: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.member(ascii: "text", text)
        writer.member(ascii: "cursor", cursor)
        writer.endObject()
    }
}
