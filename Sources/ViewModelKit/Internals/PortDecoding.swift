import JSONCore

/// The half of a ``ValueCodec`` a port that only takes values in keeps: the schema it
/// publishes and the decoding (``Input``, an ``ActionPort``'s input).
///
/// Every instance's `Ports()` makes its ports, and each port used to keep its whole codec
/// (three closures, 48 bytes) although it never calls one of them; keeping two is 16 bytes
/// fewer per port per instance (see `vmd-bench create`, RSS per idle Counter).
@usableFromInline struct PortDecoding<Value> {
    @usableFromInline let makeSchema: () -> JSONValue
    @usableFromInline let decode: (JSONValue) throws(JSONDecodingError) -> Value

    @inlinable init(_ codec: ValueCodec<Value>) {
        makeSchema = codec.makeSchema
        decode = codec.decode
    }

    /// The published schema (read at registration).
    var schema: JSONValue { makeSchema() }
}
