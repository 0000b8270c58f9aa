import JSONCore

extension ValueCodec where Value: Codable & Sendable {
    /// The codec of a `Codable` type: its schema derived once from its `init(from:)`
    /// (or stated by `JSONSchemaProviding`), decoding and encoding through
    /// `JSONValueDecoder` and `JSONValueEncoder`.
    ///
    /// Ports pick it for `Codable` value types that are not `JSONConvertible`; a type that is
    /// both uses `json`, the hand-written fast path (and so does this codec, for it, and for
    /// any `JSONConvertible` member inside a `Codable` value).
    ///
    /// A value that cannot be encoded (a `Double` that is not finite) is sent as `null`, as
    /// the serializer writes a non-finite `JSONConvertible` double.
    public static var codable: ValueCodec<Value> {
        let decoder = JSONValueDecoder()
        let encoder = JSONValueEncoder()
        // Asked once per codec rather than on every value (JSONValueDecoder.usesOwnCoding).
        let ownCoding = JSONValueDecoder.usesOwnCoding(Value.self)
        return ValueCodec(
            schema: JSONSchemaBuilder.schema(for: Value.self),
            decode: { json throws(JSONDecodingError) in
                ownCoding ? try decoder.decodeThroughCodable(Value.self, from: json) : try decoder.decode(Value.self, from: json)
            },
            encode: { value in
                (try? ownCoding ? encoder.encodeThroughCodable(value) : encoder.encode(value)) ?? .null
            })
    }
}
