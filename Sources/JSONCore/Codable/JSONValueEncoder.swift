/// Encodes any `Encodable` value as a ``JSONValue``, without Foundation.
///
/// Structs become objects (members in the order `encode(to:)` writes them; an `Optional`
/// member that is `nil` is left out), arrays become arrays, `[String: T]` becomes an object,
/// integers of every width become ``JSONValue/integer(_:)``, `Double` and `Float` become
/// ``JSONValue/double(_:)``. A type that also conforms to ``JSONConvertible`` is encoded
/// with its hand-written ``JSONConvertible/jsonValue`` wherever it appears.
///
/// ```swift
/// struct Item: Codable { var id: Int; var title: String; var done: Bool }
/// let json = try JSONValueEncoder().encode(Item(id: 1, title: "Milk", done: false))
/// // {"id":1,"title":"Milk","done":false}
/// ```
///
/// Encoding fails with `EncodingError.invalidValue` for a `Double` or `Float` that is not
/// finite, and for a `UInt64` above `Int64.max` that a double cannot hold exactly: JSON has
/// no form for them that decodes back to the same value.
public struct JSONValueEncoder: Sendable {
    /// An encoder; it has no options and keeps no state between calls.
    public init() {}

    /// The JSON form of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = EncodingNode()
        try ValueEncoder(node: node, codingPath: []).encodeValue(value)
        return node.materialized()
    }

    /// The JSON form of `value` from its own `encode(to:)` even when it is also
    /// ``JSONConvertible`` (its members still use theirs): how a `JSONConvertible`
    /// conformance built on `Codable` encodes without calling itself.
    public func encodeThroughCodable<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = EncodingNode()
        try value.encode(to: ValueEncoder(node: node, codingPath: []))
        return node.materialized()
    }
}
