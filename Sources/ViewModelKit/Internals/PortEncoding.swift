import JSONCore

/// The half of a ``ValueCodec`` a port that only gives values out keeps: the schema it
/// publishes and the encoding (``State``, ``EventOutput``, an ``ActionPort``'s result).
/// 16 bytes fewer per port per instance than the whole codec, as ``PortDecoding`` says.
@usableFromInline struct PortEncoding<Value> {
    @usableFromInline let makeSchema: () -> JSONValue
    @usableFromInline let encode: (Value) -> JSONValue

    @inlinable init(_ codec: ValueCodec<Value>) {
        makeSchema = codec.makeSchema
        encode = codec.encode
    }

    /// The published schema (read at registration).
    var schema: JSONValue { makeSchema() }
}
