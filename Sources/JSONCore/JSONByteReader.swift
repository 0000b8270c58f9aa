/// A cursor over one JSON value's bytes, for types that read themselves without a
/// ``JSONValue`` tree (``JSONReadable``).
///
/// It reads only the plain forms: integers of at most 18 digits (no fraction, no exponent,
/// not `-0`), strings without escapes or control characters and valid as UTF-8, `true`,
/// `false`, `null`, objects and arrays. Anything else — another form, bad syntax, a container
/// deeper than the parser's `maxDepth` — throws ``unread``: the value is then parsed into a
/// tree and decoded with `init(json:)`, which reports whatever is wrong. So an error thrown
/// here is never shown to anyone; it only means "read it the general way".
///
/// The bytes are lent for the duration of one read (the kit makes the reader, see
/// ``JSONReadable``): nothing read from it may keep them, and ``Key`` is valid only inside
/// the ``readObject(_:)`` call that gives it.
public struct JSONByteReader {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var position: Int
    /// The nesting of the container being read (the value's own container counts from the
    /// `depth` given to ``init(_:depth:maxDepth:)``, as ``JSONParser`` counts it).
    @usableFromInline var depth: Int
    @usableFromInline let maxDepth: Int

    /// A reader of the value in `bytes` (whitespace around it allowed), found at nesting
    /// `depth` of its document (its own object or array is one deeper), read with the
    /// general parser's `maxDepth`.
    @usableFromInline
    package init(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int, maxDepth: Int) {
        self.bytes = bytes
        self.position = 0
        self.depth = depth
        self.maxDepth = maxDepth
    }

    /// What every method throws for a form it does not read; a conformer throws it too for
    /// anything it does not expect (a member it does not know, a repeated one, a missing one).
    public static var unread: JSONDecodingError {
        JSONDecodingError(expected: "a value in the byte reader's plain forms", got: "another form")
    }

    /// Throws ``unread`` unless only whitespace follows the value read.
    @usableFromInline
    package mutating func finish() throws(JSONDecodingError) {
        skipWhitespace()
        guard position == bytes.count else { throw Self.unread }
    }

    /// The value `read` reads from the reader's bytes, which must hold nothing else but
    /// whitespace (``finish()``): a value followed by anything is ``unread``, for the caller to
    /// read the bytes the general way.
    @inlinable @inline(__always)
    package mutating func readWhole<Value>(
        with read: (inout JSONByteReader) throws(JSONDecodingError) -> Value
    ) throws(JSONDecodingError) -> Value {
        let value = try read(&self)
        try finish()
        return value
    }

    /// The value `read` reads from `bytes` (at nesting `depth`, within `maxDepth`: see
    /// ``init(_:depth:maxDepth:)``), which hold nothing else but whitespace (``readWhole(with:)``).
    @inlinable @inline(__always)
    package static func readWhole<Value>(
        _ bytes: UnsafeBufferPointer<UInt8>, depth: Int, maxDepth: Int,
        with read: (inout JSONByteReader) throws(JSONDecodingError) -> Value
    ) throws(JSONDecodingError) -> Value {
        var reader = JSONByteReader(bytes, depth: depth, maxDepth: maxDepth)
        return try reader.readWhole(with: read)
    }

    // MARK: Scalars

    /// An integer of at most 18 digits, as the general parser reads it (`-?(0|[1-9][0-9]*)`).
    @inlinable public mutating func readInt64() throws(JSONDecodingError) -> Int64 {
        skipWhitespace()
        var index = position
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var magnitude: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            magnitude = magnitude &* 10 &+ Int64(digit)
            index += 1
        }
        let count = index - start
        guard count > 0, count <= 18 else { throw Self.unread }
        if bytes[start] == UInt8(ascii: "0"), count > 1 || negative { throw Self.unread }
        if index < bytes.count {
            let next = bytes[index]
            if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { throw Self.unread }
        }
        position = index
        return negative ? -magnitude : magnitude
    }

    /// An integer of at most 18 digits (see ``readInt64()``) that fits `Int`.
    @inlinable public mutating func readInt() throws(JSONDecodingError) -> Int {
        guard let value = Int(exactly: try readInt64()) else { throw Self.unread }
        return value
    }

    /// A string without escapes or control characters, valid UTF-8.
    @inlinable public mutating func readString() throws(JSONDecodingError) -> String {
        let content = try readPlainString()
        // ASCII (the common case) is valid UTF-8 as it stands.
        for byte in content where byte >= 0x80 {
            guard let string = String(validating: content, as: UTF8.self) else { throw Self.unread }
            return string
        }
        return String(decoding: content, as: UTF8.self)
    }

    /// `true` or `false`.
    @inlinable public mutating func readBool() throws(JSONDecodingError) -> Bool {
        skipWhitespace()
        if take("true") { return true }
        if take("false") { return false }
        throw Self.unread
    }

    /// Takes `null` if it is next (`true`), else leaves the cursor where it was (`false`).
    @inlinable public mutating func readNullIfPresent() -> Bool {
        skipWhitespace()
        return take("null")
    }

    // MARK: Containers

    /// A member name, valid only inside the ``readObject(_:)`` call that gives it; match it
    /// with a string literal (`case "id":`).
    public struct Key {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>

        @inlinable init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Whether the name is exactly `name`.
        @inlinable public static func ~= (name: StaticString, key: Key) -> Bool {
            // A string literal always has its bytes; a StaticString made from one scalar may
            // not, and then matches nothing (the reader declines: the general path reads it).
            guard name.hasPointerRepresentation else { return false }
            let count = name.utf8CodeUnitCount
            guard count == key.bytes.count else { return false }
            let expected = name.utf8Start
            for index in 0..<count where expected[index] != key.bytes[index] { return false }
            return true
        }
    }

    /// An object: `member` is called once per member, in order, with its name (a string
    /// without escapes) and the reader at its value, which it must read (or throw).
    /// Repeated names are the caller's to refuse (with ``unread``), like unknown ones.
    @inlinable public mutating func readObject(
        _ member: (_ key: Key, _ reader: inout JSONByteReader) throws(JSONDecodingError) -> Void
    ) throws(JSONDecodingError) {
        if try enter(UInt8(ascii: "{"), closedBy: UInt8(ascii: "}")) { return }
        repeat {
            let name = try readPlainString()
            // The parser refuses a name that is not UTF-8, whatever the conformer does with it.
            for byte in name where byte >= 0x80 {
                guard String(validating: name, as: UTF8.self) != nil else { throw Self.unread }
                break
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw Self.unread }
            position += 1
            try member(Key(name), &self)
        } while try next(closedBy: UInt8(ascii: "}"))
    }

    /// An array: `element` is called once per element, in order, with the reader at it,
    /// which it must read (or throw).
    @inlinable public mutating func readArray(
        _ element: (_ reader: inout JSONByteReader) throws(JSONDecodingError) -> Void
    ) throws(JSONDecodingError) {
        if try enter(UInt8(ascii: "["), closedBy: UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while try next(closedBy: UInt8(ascii: "]"))
    }

    /// Takes `open` one level deeper (within `maxDepth`), then `close` at once if it follows
    /// (`true`: an empty container, read).
    @inlinable mutating func enter(_ open: UInt8, closedBy close: UInt8) throws(JSONDecodingError) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == open, depth < maxDepth else { throw Self.unread }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == close else {
            depth += 1
            return false
        }
        position += 1
        return true
    }

    /// After a member or element: `true` at a comma (another follows), `false` at `close`
    /// (the container is read, one level up again).
    @inlinable mutating func next(closedBy close: UInt8) throws(JSONDecodingError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw Self.unread }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == close else { throw Self.unread }
        depth -= 1
        return false
    }

    // MARK: Tokens

    /// The bytes between a `"` at the cursor and the next `"`, which must hold no backslash
    /// and no control character (not checked as UTF-8).
    @inlinable mutating func readPlainString() throws(JSONDecodingError) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw Self.unread }
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            // Most bytes are neither a quote (0x22), a backslash (0x5C) nor a control character.
            if byte > UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<index])
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw Self.unread }
            index += 1
        }
        throw Self.unread
    }

    /// Takes the ASCII `literal` if it is next.
    @inlinable @inline(__always) mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let expected = literal.utf8Start
        for index in 0..<count where expected[index] != bytes[position + index] { return false }
        position += count
        return true
    }

    @inlinable @inline(__always) mutating func skipWhitespace() {
        // Compact JSON has none: one compare settles every byte above the space.
        guard position < bytes.count, bytes[position] <= 0x20 else { return }
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
