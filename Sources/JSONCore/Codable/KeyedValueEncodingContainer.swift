/// A keyed container of ``ValueEncoder``: each key is a member of the node's object, in the
/// order first written.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func encoder(for key: some CodingKey) -> ValueEncoder {
        ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.set(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.set(key.stringValue, .integer(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.set(key.stringValue, try ValueEncoder.double(value, at: codingPath + [key]))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let scalar = try ValueEncoder.scalar(value, at: codingPath + [key]) {
            node.set(key.stringValue, scalar)
        } else {
            try encoder(for: key).encodeValue(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder(for: CodingPathKey.superKey) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
}
