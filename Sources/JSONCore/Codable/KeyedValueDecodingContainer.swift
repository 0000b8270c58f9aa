/// A keyed container of ``ValueDecoder`` over one JSON object. A missing member decodes as
/// `null` would, so an `Optional` may be missing and anything else reports "got missing".
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object.contains(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }

    private func memberPath(_ key: some CodingKey) -> JSONPath { CodingPathKey.jsonPath(codingPath + [key]) }

    private func decoder(for key: some CodingKey) -> ValueDecoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }

    private func missing(_ key: Key, expected: String) -> JSONDecodingError {
        JSONDecodingError(path: memberPath(key), expected: expected, got: "missing", detail: "required member \"\(key.stringValue)\" is missing")
    }

    /// The member's value, or the "missing" error naming what was `expected`.
    private func member(_ key: Key, expected: String) throws(JSONDecodingError) -> JSONValue {
        guard let value = object[key.stringValue] else { throw missing(key, expected: expected) }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try ScalarDecoding.bool(member(key, expected: "boolean"), at: memberPath(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try ScalarDecoding.string(member(key, expected: "string"), at: memberPath(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try ScalarDecoding.double(member(key, expected: "number"), at: memberPath(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try ScalarDecoding.float(member(key, expected: "number"), at: memberPath(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    /// Always inlined, so each width's `decode` calls `ScalarDecoding.integer` with its own
    /// type, which the compiler specializes (this container is generic over `Key`, so a
    /// call through a helper generic over the width stayed unspecialized).
    @inline(__always)
    private func integer<I: FixedWidthInteger>(_ key: Key) throws(JSONDecodingError) -> I {
        try ScalarDecoding.integer(I.self, member(key, expected: "integer"), at: memberPath(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard object.contains(key.stringValue) else {
            // As `null` would: an Optional is nil, anything else is missing.
            if let absent = try? decoder(for: key).decodeValue(T.self) { return absent }
            throw missing(key, expected: DecodingFailure.expectation(T.self).replacingPrefix("a valid ", with: ""))
        }
        return try decoder(for: key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        _ = try member(key, expected: "object")
        return try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        _ = try member(key, expected: "array")
        return try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder(for: CodingPathKey.superKey) }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder(for: key) }
}
