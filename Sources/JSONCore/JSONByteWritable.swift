/// A ``JSONConvertible`` type that also writes its JSON text itself, without building its
/// ``JSONConvertible/jsonValue`` tree: a state output of such a type reaches its whole-value
/// subscribers as bytes written straight from the value.
///
/// `writeJSON(to:)` must write exactly the text the compact serializer writes for
/// `jsonValue` (the same members in the same order, the same number and string forms);
/// write the members in the order `jsonValue` adds them:
///
/// ```swift
/// extension Credentials: JSONByteWritable {
///     func writeJSON(to writer: inout JSONTextWriter) {
///         writer.beginObject()
///         writer.member(ascii: "email", email)
///         writer.memberIfPresent(ascii: "remember", remember)
///         writer.endObject()
///     }
/// }
/// ```
public protocol JSONByteWritable: JSONConvertible {
    /// Writes this value's JSON text: the serialized ``JSONConvertible/jsonValue``.
    func writeJSON(to writer: inout JSONTextWriter)

    /// Whether a port should still hand this type's values on as `jsonValue` trees: `true`
    /// for the standard scalars, whose tree is one enum case (nothing allocated) that the
    /// daemon writes straight into a connection's buffer. `false` unless a type says otherwise.
    static var prefersJSONValue: Bool { get }
}

extension JSONByteWritable {
    public static var prefersJSONValue: Bool { false }

    /// The JSON text of this value, as UTF-8 bytes.
    public func writtenJSON() -> [UInt8] {
        var bytes: [UInt8] = []
        JSONTextWriter.append(to: &bytes) { writeJSON(to: &$0) }
        return bytes
    }
}

// The standard types vmd's typed values are made of (their trees: JSONConvertible+Standard.swift).

extension JSONValue: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
}

extension JSONObject: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(.object(self)) }
}

extension Bool: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
    public static var prefersJSONValue: Bool { true }
}

extension String: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
    public static var prefersJSONValue: Bool { true }
}

extension Int64: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
    public static var prefersJSONValue: Bool { true }
}

extension Int: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
    public static var prefersJSONValue: Bool { true }
}

extension Double: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) { writer.write(self) }
    public static var prefersJSONValue: Bool { true }
}

extension Optional: JSONByteWritable where Wrapped: JSONByteWritable {
    /// `null` for `nil`.
    public func writeJSON(to writer: inout JSONTextWriter) {
        if let value = self { value.writeJSON(to: &writer) } else { writer.writeNull() }
    }
    public static var prefersJSONValue: Bool { Wrapped.prefersJSONValue }
}

extension Array: JSONByteWritable where Element: JSONByteWritable {
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginArray()
        for element in self { element.writeJSON(to: &writer) }
        writer.endArray()
    }
}

extension Dictionary: JSONByteWritable where Key == String, Value: JSONByteWritable {
    /// Members in sorted key order, as `jsonValue` has them.
    public func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        for key in keys.sorted() {
            guard let value = self[key] else { continue }
            writer.key(key)
            value.writeJSON(to: &writer)
        }
        writer.endObject()
    }
}
