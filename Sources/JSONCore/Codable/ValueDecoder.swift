/// The `Decoder` behind ``JSONValueDecoder``: reads one ``JSONValue``. It is its own
/// single-value container; errors are ``JSONDecodingError``s with the full path.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    var path: JSONPath { CodingPathKey.jsonPath(codingPath) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw JSONDecodingError.typeMismatch(expected: "object", got: value, at: path) }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw JSONDecodingError.typeMismatch(expected: "array", got: value, at: path) }
        return UnkeyedValueDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Reads a `T` here: scalars directly, `JSONConvertible` types through their hand-written
    /// `init(json:)`, anything else through its `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = try ScalarDecoding.decode(T.self, from: value, at: path) { return scalar }
        if let convertible = T.self as? any JSONConvertible.Type {
            do throws(JSONDecodingError) {
                if let decoded = try convertible.init(json: value) as? T { return decoded }
            } catch {
                var located = error
                located.path = JSONPath(path.components + error.path.components)
                throw located
            }
        }
        do {
            return try T(from: self)
        } catch {
            throw DecodingFailure.converting(error, decoding: T.self, value: value, at: codingPath)
        }
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try ScalarDecoding.bool(value, at: path) }
    func decode(_ type: String.Type) throws -> String { try ScalarDecoding.string(value, at: path) }
    func decode(_ type: Double.Type) throws -> Double { try ScalarDecoding.double(value, at: path) }
    func decode(_ type: Float.Type) throws -> Float { try ScalarDecoding.float(value, at: path) }
    func decode(_ type: Int.Type) throws -> Int { try ScalarDecoding.integer(Int.self, value, at: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ScalarDecoding.integer(Int8.self, value, at: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ScalarDecoding.integer(Int16.self, value, at: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ScalarDecoding.integer(Int32.self, value, at: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ScalarDecoding.integer(Int64.self, value, at: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try ScalarDecoding.integer(UInt.self, value, at: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ScalarDecoding.integer(UInt8.self, value, at: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ScalarDecoding.integer(UInt16.self, value, at: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ScalarDecoding.integer(UInt32.self, value, at: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ScalarDecoding.integer(UInt64.self, value, at: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }
}
