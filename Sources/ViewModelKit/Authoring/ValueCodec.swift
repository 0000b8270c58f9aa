import JSONCore

/// How one port's values cross the wire: their JSON Schema, and the conversions to and from
/// `JSONValue`.
///
/// Ports pick their codec from the value type, so authors rarely name one: a `JSONConvertible`
/// type uses `json` (a `JSONByteWritable` or `JSONReadable` type its own `json`, which also
/// writes its values to bytes or reads them from bytes), and `Void` (an input or action that carries nothing, an action that returns
/// nothing) uses ``void``, published as `{"type": "null"}`. Pass a codec explicitly to
/// publish a tighter schema than the type's own (for example `"minimum": 0`).
public struct ValueCodec<Value> {
    /// The JSON Schema (2020-12) every encoded value satisfies.
    ///
    /// Built when read, not when the codec is made: every instance's `Ports()` makes its
    /// ports' codecs, but only registration reads their schemas (once per type, into the
    /// registry's description and compiled rules), so an instance never builds one. (A port
    /// made outside an instance, such as registration's probe or a test's own `Ports()`,
    /// reads it when made.)
    public var schema: JSONValue { makeSchema() }
    @usableFromInline let makeSchema: () -> JSONValue
    @usableFromInline let decode: (JSONValue) throws(JSONDecodingError) -> Value
    @usableFromInline let encode: (Value) -> JSONValue
    /// Appends a value's JSON text (the serialized `encode(value)`) without a tree, when the
    /// type writes itself (`JSONByteWritable`); a state hands whole-value subscribers these bytes.
    @usableFromInline let writeText: ((Value, inout [UInt8]) -> Void)?
    /// How a value reads itself from its bytes (`JSONReadable`), only in a codec whose
    /// schema is the type's own `jsonSchema` (`json`; ``withSchema(_:)`` drops it), so that
    /// what it accepts is what the schema and `decode` accept.
    @usableFromInline let read: ((inout JSONByteReader) throws(JSONDecodingError) -> Value)?

    /// A codec from its parts. `encode` must produce values valid against `schema`, which
    /// is evaluated only when the schema is read (at registration).
    @inlinable public init(
        schema: @autoclosure @escaping () -> JSONValue,
        decode: @escaping (JSONValue) throws(JSONDecodingError) -> Value,
        encode: @escaping (Value) -> JSONValue
    ) {
        self.init(makeSchema: schema, decode: decode, encode: encode, writeText: nil, read: nil)
    }

    @inlinable init(
        makeSchema: @escaping () -> JSONValue,
        decode: @escaping (JSONValue) throws(JSONDecodingError) -> Value,
        encode: @escaping (Value) -> JSONValue,
        writeText: ((Value, inout [UInt8]) -> Void)?,
        read: ((inout JSONByteReader) throws(JSONDecodingError) -> Value)?
    ) {
        self.makeSchema = makeSchema
        self.decode = decode
        self.encode = encode
        self.writeText = writeText
        self.read = read
    }

    /// The same codec publishing `schema` instead (values still decode and encode alike).
    /// The kit validates incoming values against the published schema before decoding,
    /// so a tighter schema is enforced.
    @inlinable public func withSchema(_ schema: @autoclosure @escaping () -> JSONValue) -> ValueCodec<Value> {
        ValueCodec(makeSchema: schema, decode: decode, encode: encode, writeText: writeText, read: nil)
    }
}

extension ValueCodec where Value: JSONConvertible {
    /// The codec of a `JSONConvertible` type: its `jsonSchema`, `init(json:)`, `jsonValue`.
    @inlinable public static var json: ValueCodec<Value> {
        ValueCodec(schema: Value.jsonSchema, decode: { json throws(JSONDecodingError) in try Value(json: json) }, encode: { $0.jsonValue })
    }
}

extension ValueCodec where Value: JSONByteWritable {
    /// The codec of a `JSONByteWritable` type: as for any `JSONConvertible` type, and its
    /// values written to bytes by `writeJSON(to:)` for whole-value subscribers (unless the
    /// type prefers its tree, as the standard scalars do).
    ///
    /// Debug builds check every value written against its `jsonValue`'s text, so a
    /// `writeJSON(to:)` that disagrees fails the tests that send it.
    @inlinable public static var json: ValueCodec<Value> {
        ValueCodec(
            makeSchema: { Value.jsonSchema }, decode: { json throws(JSONDecodingError) in try Value(json: json) }, encode: { $0.jsonValue },
            writeText: textWriter, read: nil)
    }

    /// `writeJSON(to:)` appending to a buffer, or `nil` when the type prefers its tree.
    @inlinable static var textWriter: ((Value, inout [UInt8]) -> Void)? {
        Value.prefersJSONValue ? nil : { value, buffer in
            let start = buffer.count
            JSONTextWriter.append(to: &buffer) { value.writeJSON(to: &$0) }
            assert(
                buffer[start...].elementsEqual(value.jsonValue.encodedBytes()),
                "\(Value.self).writeJSON(to:) must write the text its jsonValue serializes to")
        }
    }
}

extension ValueCodec where Value: JSONReadable {
    /// The codec of a `JSONReadable` type: as for any `JSONConvertible` type, and the type's
    /// reader for values sent to an input, which skip the tree and the schema check (the
    /// reader accepts only what they accept).
    @inlinable public static var json: ValueCodec<Value> {
        ValueCodec(
            makeSchema: { Value.jsonSchema }, decode: { json throws(JSONDecodingError) in try Value(json: json) },
            encode: { $0.jsonValue }, writeText: nil, read: { reader throws(JSONDecodingError) in try Value(reading: &reader) })
    }
}

extension ValueCodec where Value: JSONReadable & JSONByteWritable {
    /// The codec of a type that both reads and writes its own bytes: its reader for inputs,
    /// its writer for states.
    @inlinable public static var json: ValueCodec<Value> {
        ValueCodec(
            makeSchema: { Value.jsonSchema }, decode: { json throws(JSONDecodingError) in try Value(json: json) },
            encode: { $0.jsonValue }, writeText: textWriter, read: { reader throws(JSONDecodingError) in try Value(reading: &reader) })
    }
}

extension ValueCodec where Value == Void {
    /// "No value": published as `{"type": "null"}`, sent and returned as `null`.
    @inlinable public static var void: ValueCodec<Void> {
        ValueCodec(
            schema: ["type": "null"],
            decode: { json throws(JSONDecodingError) in
                guard json.isNull else { throw .typeMismatch(expected: "null", got: json) }
            },
            encode: { _ in .null })
    }
}

extension JSONValue {
    /// This schema with `"default": value` appended (objects only; other schemas unchanged).
    func addingDefault(_ value: JSONValue) -> JSONValue {
        adding("default", value)
    }

    /// This schema with member `key` set to `value` (objects only; other schemas unchanged).
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}

extension ValueCodec {
    /// `value` as it goes on the wire (what a linked client sends; ports call ``encode``).
    package func encoded(_ value: Value) -> JSONValue {
        encode(value)
    }

    /// The value `json` carries (what a linked client receives; ports call ``decode``).
    package func decoded(_ json: JSONValue) throws(JSONDecodingError) -> Value {
        try decode(json)
    }
}
