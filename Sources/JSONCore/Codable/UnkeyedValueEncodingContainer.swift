/// An unkeyed container of ``ValueEncoder``: each value is appended to the node's array.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int { node.elementCount }

    private func nextEncoder() -> ValueEncoder {
        let position = node.elementCount
        return ValueEncoder(node: node.appendElement(), codingPath: codingPath + [CodingPathKey.index(position)])
    }

    mutating func encodeNil() throws { nextEncoder().node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { nextEncoder().node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { nextEncoder().node.content = .value(.string(value)) }
    mutating func encode(_ value: Int) throws { nextEncoder().node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { nextEncoder().node.content = .value(.integer(value)) }
    mutating func encode(_ value: Double) throws { try nextEncoder().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try nextEncoder().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nextEncoder() }
}
