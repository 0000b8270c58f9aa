/// Writes one JSON object member by member straight into a byte buffer.
///
/// This is the splice path: a value that is already encoded (the server encodes each
/// output value once and sends it in many notifications) goes in with
/// ``rawMember(_:_:)`` without being parsed or re-encoded.
///
/// ```swift
/// JSONObjectWriter.append(to: &buffer) { params in
///     params.member("subscription", string: id)
///     params.rawMember("value", encodedValue)
///     params.member("seq", integer: seq)
/// }
/// ```
public struct JSONObjectWriter {
    /// The buffer being written; the object's bytes are appended at its end.
    public var buffer: [UInt8]
    private var needsComma = false

    init(buffer: [UInt8]) {
        self.buffer = buffer
    }

    /// Appends `{`, the members `body` writes, and `}` to `buffer`.
    public static func append<E: Error>(
        to buffer: inout [UInt8], _ body: (inout JSONObjectWriter) throws(E) -> Void
    ) throws(E) {
        // Move the array into the writer and back so it is never copied.
        var writer = JSONObjectWriter(buffer: [])
        swap(&writer.buffer, &buffer)
        writer.buffer.append(UInt8(ascii: "{"))
        defer {
            writer.buffer.append(UInt8(ascii: "}"))
            swap(&writer.buffer, &buffer)
        }
        try body(&writer)
    }

    /// Writes `"key":` (with a leading comma when needed); the caller then writes the value.
    public mutating func key(_ key: String) {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
        needsComma = true
        JSONSerializer.appendString(key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    /// Writes `"key":` for a key spelled out in the source: printable ASCII with no `"` or `\\`
    /// (the caller's promise, checked in debug builds). The bytes are copied without being
    /// scanned for escapes, which ``key(_:)`` does for every key.
    public mutating func key(ascii key: StaticString) {
        assert(key.isASCII && JSONByteWriter.writesVerbatim(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)),
               "key(ascii:) takes keys that need no escaping")
        buffer.append(needsComma ? UInt8(ascii: ",") : UInt8(ascii: "\""))
        if needsComma { buffer.append(UInt8(ascii: "\"")) }
        needsComma = true
        buffer.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    /// Writes a string member whose key is spelled out in the source (see ``key(ascii:)``).
    public mutating func member(ascii key: StaticString, string: String) {
        self.key(ascii: key)
        JSONSerializer.appendString(string, to: &buffer)
    }

    /// Writes a member whose value is a ``JSONValue``.
    public mutating func member(_ key: String, _ value: JSONValue) {
        self.key(key)
        JSONSerializer.append(value, to: &buffer)
    }

    /// Writes a string member.
    public mutating func member(_ key: String, string: String) {
        self.key(key)
        JSONSerializer.appendString(string, to: &buffer)
    }

    /// Writes an integer member.
    public mutating func member(_ key: String, integer: Int64) {
        self.key(key)
        JSONSerializer.appendInteger(integer, to: &buffer)
    }

    /// Writes a boolean member.
    public mutating func member(_ key: String, bool: Bool) {
        self.key(key)
        JSONSerializer.appendASCII(bool ? "true" : "false", to: &buffer)
    }

    /// Writes a member whose value is JSON text that is already encoded. The bytes are
    /// copied verbatim: they must be one complete, valid JSON value.
    public mutating func rawMember(_ key: String, _ encodedJSON: some Collection<UInt8>) {
        self.key(key)
        buffer.append(contentsOf: encodedJSON)
    }

    /// Writes a member whose value is a nested object written by `body`.
    public mutating func objectMember<E: Error>(
        _ key: String, _ body: (inout JSONObjectWriter) throws(E) -> Void
    ) throws(E) {
        self.key(key)
        try JSONObjectWriter.append(to: &buffer, body)
    }
}
