/// Decodes any `Decodable` type from a ``JSONValue``, without Foundation, with the errors
/// the rest of vmd speaks: a ``JSONDecodingError`` whose path points at the exact spot
/// (`$.items[2].title: expected string, got integer`).
///
/// The mapping mirrors ``JSONValueEncoder``: objects to structs (unknown members are
/// ignored; a missing or `null` member decodes as `nil` for an `Optional` and is an error
/// otherwise), arrays to arrays, objects to `[String: T]`, numbers to every integer width
/// with range checks (`2.0` is the integer 2; `300` is not an `Int8`), and to `Double` and
/// `Float`. A type that also conforms to ``JSONConvertible`` is decoded with its
/// hand-written ``JSONConvertible/init(json:)`` wherever it appears.
///
/// ```swift
/// let item = try JSONValueDecoder().decode(Item.self, from: ["id": 1, "title": "Milk", "done": false])
/// ```
public struct JSONValueDecoder: Sendable {
    /// A decoder; it has no options and keeps no state between calls.
    public init() {}

    /// Decodes a `T` from `json`; errors carry the path from `json` (`$`).
    public func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(JSONDecodingError) -> T {
        do {
            return try ValueDecoder(value: json, codingPath: []).decodeValue(T.self)
        } catch let error as JSONDecodingError {
            throw error
        } catch {
            throw DecodingFailure.converting(error, decoding: T.self, value: json, at: [])
        }
    }

    /// Whether ``decode(_:from:)`` and ``JSONValueEncoder/encode(_:)`` run `type`'s own
    /// `Codable` conformance: it is neither a standard scalar (read and written directly) nor
    /// ``JSONConvertible``. Then ``decodeThroughCodable(_:from:)`` and
    /// ``JSONValueEncoder/encodeThroughCodable(_:)`` do the same work without asking, on every
    /// value, which of the three the type is (casts that cost ~2,000 instructions per value
    /// in callgrind, `.ci/instructions` `sendCodable`); a codec asks once, when it is made.
    package static func usesOwnCoding<T: Decodable>(_ type: T.Type) -> Bool {
        if type is any JSONConvertible.Type { return false }
        // A standard scalar throws its type mismatch for `null`; any other type is not one.
        do {
            return try ScalarDecoding.decode(T.self, from: .null, at: .root) == nil
        } catch {
            return false
        }
    }

    /// Decodes a `T` from `json` with `T`'s own `init(from:)` even when `T` is also
    /// ``JSONConvertible`` (its members still use theirs): how a `JSONConvertible`
    /// conformance built on `Codable` decodes without calling itself.
    public func decodeThroughCodable<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(JSONDecodingError) -> T {
        let decoder = ValueDecoder(value: json, codingPath: [])
        do {
            return try T(from: decoder)
        } catch {
            throw DecodingFailure.converting(error, decoding: T.self, value: json, at: [])
        }
    }
}
