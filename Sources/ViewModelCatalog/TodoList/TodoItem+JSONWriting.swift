import JSONCore

extension TodoItem: JSONByteWritable {
    /// `{"id", "title", "done"}`, in ``jsonValue``'s order, written without a tree: a
    /// whole-value subscriber of an item state gets these bytes.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.member(ascii: "id", id)
        writer.member(ascii: "title", title)
        writer.member(ascii: "done", done)
        writer.endObject()
    }
}
