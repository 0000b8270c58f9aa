/// The `Decoder` of ``SchemaProbe``: answers each request with a stand-in value and records
/// the request in its ``ProbeNode``. In `minimal` mode it asks for as little as possible
/// (no array elements, no dictionary members, `nil` optionals), to end recursion.
struct ProbeDecoder: Decoder, SingleValueDecodingContainer {
    let probe: SchemaProbe
    let node: ProbeNode
    let codingPath: [any CodingKey]
    let minimal: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if case .unknown = node.shape { node.shape = .object }
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: probe, node: node, codingPath: codingPath, minimal: minimal))
    }

    func unkeyedContainer() -> any UnkeyedDecodingContainer {
        node.shape = .array
        return ProbeUnkeyedContainer(probe: probe, node: node, codingPath: codingPath, minimal: minimal)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        node.nullable = true
        return minimal
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try standIn(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try standIn(type) }
    func decode(_ type: String.Type) throws -> String { try standIn(type) }
    func decode(_ type: Double.Type) throws -> Double { try standIn(type) }
    func decode(_ type: Float.Type) throws -> Float { try standIn(type) }
    func decode(_ type: Int.Type) throws -> Int { try standIn(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try standIn(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try standIn(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try standIn(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try standIn(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try standIn(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try standIn(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try standIn(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try standIn(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try standIn(type) }

    private func standIn<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = probe.probe(T.self)
        node.shape = .schema(schema)
        guard let value else { throw SchemaProbe.NoStandIn() }
        return value
    }
}
