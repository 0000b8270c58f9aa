// The human form: two-space indentation, "key": value, one member or element per line,
// empty containers as [] and {}. Same member order and escaping as the compact form.

extension JSONSerializer {
    /// Appends the pretty-printed JSON text of `value` (no trailing newline).
    public static func appendPretty(_ value: JSONValue, to buffer: inout [UInt8], indent: Int = 0) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            buffer.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(indent + 1, &buffer)
                appendPretty(element, to: &buffer, indent: indent + 1)
            }
            newline(indent, &buffer)
            buffer.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            buffer.append(UInt8(ascii: "{"))
            for (offset, member) in object.storage.enumerated() {
                if offset > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(indent + 1, &buffer)
                appendString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(UInt8(ascii: " "))
                appendPretty(member.value, to: &buffer, indent: indent + 1)
            }
            newline(indent, &buffer)
            buffer.append(UInt8(ascii: "}"))
        default:
            append(value, to: &buffer)
        }
    }

    private static func newline(_ indent: Int, _ buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}

extension JSONValue {
    /// Appends the pretty-printed (2-space indented) JSON text of this value to `buffer`.
    public func encodePretty(into buffer: inout [UInt8]) {
        JSONSerializer.appendPretty(self, to: &buffer)
    }

    /// The pretty-printed (2-space indented) JSON text, for people.
    public func prettyPrinted() -> String {
        var buffer: [UInt8] = []
        JSONSerializer.appendPretty(self, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
