/// An unkeyed container of ``ValueEncoder``: each value is appended to the node's array.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int { node.elementCount }

    private func nextEncoder() -> ValueEncoder {
        let position = node.elementCount
        return ValueEncoder(node: node.appendElement(), codingPath: codingPath + [CodingPathKey.index(position)])
    }

    mutating func encodeNil() throws { node.append(.null) }
    mutating func encode(_ value: Bool) throws { node.append(.bool(value)) }
    mutating func encode(_ value: String) throws { node.append(.string(value)) }
    mutating func encode(_ value: Int) throws { node.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.append(.integer(value)) }
    mutating func encode(_ value: Double) throws {
        node.append(try ValueEncoder.double(value, at: codingPath + [CodingPathKey.index(count)]))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let scalar = try ValueEncoder.scalar(value, at: codingPath + [CodingPathKey.index(count)]) {
            node.append(scalar)
        } else {
            try nextEncoder().encodeValue(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nextEncoder() }
}
