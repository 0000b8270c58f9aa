/// Writes one JSON value's text straight into a byte buffer, piece by piece, without building
/// a ``JSONValue`` first: what a ``JSONByteWritable`` type's `writeJSON(to:)` is given.
///
/// The text is the compact serializer's (``JSONSerializer``): no optional whitespace, strings
/// escaped minimally, doubles in their shortest round-trip form (non-finite ones as `null`).
/// Commas are written for you; the caller writes keys, values and the brackets in order:
///
/// ```swift
/// writer.beginObject()
/// writer.member(ascii: "id", id)
/// writer.member(ascii: "title", title)
/// writer.endObject()
/// ```
///
/// Writes go through the serializer's stack chunk (JSONTextScratch.swift) and reach the
/// buffer once per chunk. A writer exists only inside ``append(to:_:)``.
public struct JSONTextWriter: ~Copyable {
    var scratch: JSONTextScratch
    var buffer: [UInt8]
    /// Whether the next key or value follows a value (and so needs a comma): false at the
    /// start, after `{`, `[` and a key's `:`. One flag serves every nesting level.
    private var needsComma = false

    private init(scratch: consuming JSONTextScratch) {
        self.scratch = scratch
        self.buffer = []
    }

    /// Appends the text that `body` writes to `buffer`.
    public static func append(to buffer: inout [UInt8], _ body: (inout JSONTextWriter) -> Void) {
        JSONTextScratch.withFreshChunk { scratch in
            var writer = JSONTextWriter(scratch: scratch)
            // Move the array into the writer and back so it is never copied.
            swap(&writer.buffer, &buffer)
            body(&writer)
            writer.scratch.flush(to: &writer.buffer)
            swap(&writer.buffer, &buffer)
        }
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { scratch.write(UInt8(ascii: ","), flushingTo: &buffer) }
    }

    /// Writes `null`.
    public mutating func writeNull() {
        separate()
        scratch.write("null", flushingTo: &buffer)
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func write(_ flag: Bool) {
        separate()
        scratch.write(flag ? "true" : "false", flushingTo: &buffer)
        needsComma = true
    }

    /// Writes the integer's decimal digits.
    public mutating func write(_ number: Int64) {
        separate()
        scratch.writeDigits(number, flushingTo: &buffer)
        needsComma = true
    }

    /// Writes the integer's decimal digits.
    public mutating func write(_ number: Int) {
        write(Int64(number))
    }

    /// Writes the shortest text that reads back as `number` (`null` when it is not finite).
    public mutating func write(_ number: Double) {
        separate()
        JSONSerializer.write(.double(number), to: &scratch, flushingTo: &buffer)
        needsComma = true
    }

    /// Writes `text` as a string literal, quotes included.
    public mutating func write(_ text: String) {
        separate()
        JSONSerializer.writeString(text, to: &scratch, flushingTo: &buffer)
        needsComma = true
    }

    /// Writes a value that is already a tree.
    public mutating func write(_ value: JSONValue) {
        separate()
        JSONSerializer.write(value, to: &scratch, flushingTo: &buffer)
        needsComma = true
    }

    /// Writes `value` through its own `writeJSON(to:)`.
    public mutating func write(_ value: some JSONByteWritable) {
        value.writeJSON(to: &self)
    }

    /// Writes `{`; the members follow, then ``endObject()``.
    public mutating func beginObject() {
        separate()
        scratch.write(UInt8(ascii: "{"), flushingTo: &buffer)
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        scratch.write(UInt8(ascii: "}"), flushingTo: &buffer)
        needsComma = true
    }

    /// Writes `[`; the elements follow, then ``endArray()``.
    public mutating func beginArray() {
        separate()
        scratch.write(UInt8(ascii: "["), flushingTo: &buffer)
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        scratch.write(UInt8(ascii: "]"), flushingTo: &buffer)
        needsComma = true
    }

    /// Writes `"key":` (escaped as any string); the member's value follows.
    public mutating func key(_ key: String) {
        separate()
        JSONSerializer.writeString(key, to: &scratch, flushingTo: &buffer)
        scratch.write(UInt8(ascii: ":"), flushingTo: &buffer)
        needsComma = false
    }

    /// Writes `"key":` for a key spelled out in the source: printable ASCII with no `"` or `\\`
    /// (the caller's promise, checked in debug builds), copied without an escape scan.
    public mutating func key(ascii key: StaticString) {
        assert(key.isASCII && UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).allSatisfy {
            $0 < 0x7F && JSONByteWriter.writesVerbatim($0)
        }, "key(ascii:) takes keys that need no escaping")
        if key.utf8CodeUnitCount <= Self.shortKeyBytes {
            // The comma, quotes and colon with the key, in one piece.
            scratch.writeKey(key, comma: needsComma, flushingTo: &buffer)
        } else {
            // The scratch writes pieces far shorter than its chunk.
            separate()
            scratch.write(UInt8(ascii: "\""), flushingTo: &buffer)
            scratch.write(verbatim: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), flushingTo: &buffer)
            scratch.write(UInt8(ascii: "\""), flushingTo: &buffer)
            scratch.write(UInt8(ascii: ":"), flushingTo: &buffer)
        }
        needsComma = false
    }

    /// Keys up to this long are copied in one piece.
    private static var shortKeyBytes: Int { 64 }

    /// Writes the member `key` (see ``key(ascii:)``) with `value`.
    public mutating func member(ascii key: StaticString, _ value: some JSONByteWritable) {
        self.key(ascii: key)
        value.writeJSON(to: &self)
    }

    /// Writes the member `key` with `value`, or nothing when `value` is `nil` (as
    /// `JSONObject.encodeIfPresent` leaves it out).
    public mutating func memberIfPresent<Value: JSONByteWritable>(ascii key: StaticString, _ value: Value?) {
        guard let value else { return }
        member(ascii: key, value)
    }
}
