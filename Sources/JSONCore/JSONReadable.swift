/// A ``JSONConvertible`` type that can also read itself straight from a value's bytes, with
/// no ``JSONValue`` tree in between (the kit uses it for values sent to an input; see
/// ``JSONByteReader``).
///
/// The reader is a shortcut, never a second definition: it must accept only values that
/// both ``JSONConvertible/jsonSchema`` and ``JSONConvertible/init(json:)`` accept, and read
/// them as the same value. On anything else — a member it does not expect, a repeated or
/// missing one, a type it does not read — it throws (``JSONByteReader/unread`` will do): the
/// kit then parses the value and checks and decodes it the general way, so every error is
/// the general path's. The kit uses it only where the input publishes the type's own
/// `jsonSchema` (a codec made with `withSchema` drops it), so a tighter schema is still
/// enforced.
///
/// ```swift
/// extension Point: JSONReadable {
///     init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
///         var x: Int?, y: Int?
///         try reader.readObject { key, reader throws(JSONDecodingError) in
///             switch key {
///             case "x" where x == nil: x = try reader.readInt()
///             case "y" where y == nil: y = try reader.readInt()
///             default: throw JSONByteReader.unread
///             }
///         }
///         guard let x, let y else { throw JSONByteReader.unread }
///         self.init(x: x, y: y)
///     }
/// }
/// ```
public protocol JSONReadable: JSONConvertible {
    /// Reads one value at the reader's cursor, or throws (see the protocol's rules).
    init(reading reader: inout JSONByteReader) throws(JSONDecodingError)
}

extension JSONReadable {
    /// Reads a whole JSON text with the type's own reader, as the kit reads a value sent to an
    /// input (nothing but whitespace may follow the value; the general parser's default
    /// `maxDepth`): for a type's tests to compare the reader with `init(json:)` on the same
    /// text. Throws ``JSONByteReader/unread`` wherever the kit would read the value the general
    /// way instead.
    public init(readingJSON text: some StringProtocol) throws(JSONDecodingError) {
        self = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(JSONDecodingError) -> Self in
            try JSONByteReader.readWhole(bytes, depth: 0, maxDepth: JSONParseOptions().maxDepth) { reader throws(JSONDecodingError) in
                try Self(reading: &reader)
            }
        }
    }
}

extension Bool: JSONReadable {
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        self = try reader.readBool()
    }
}

extension String: JSONReadable {
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        self = try reader.readString()
    }
}

extension Int64: JSONReadable {
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        self = try reader.readInt64()
    }
}

extension Int: JSONReadable {
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        self = try reader.readInt()
    }
}

extension Optional: JSONReadable where Wrapped: JSONReadable {
    /// `null` as `nil`, anything else as the wrapped type reads it.
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        self = reader.readNullIfPresent() ? nil : try Wrapped(reading: &reader)
    }
}

extension Array: JSONReadable where Element: JSONReadable {
    @inlinable public init(reading reader: inout JSONByteReader) throws(JSONDecodingError) {
        var elements: [Element] = []
        try reader.readArray { reader throws(JSONDecodingError) in
            elements.append(try Element(reading: &reader))
        }
        self = elements
    }
}
