/// An unkeyed container of ``ProbeDecoder``: it offers one element (none in minimal mode)
/// and records that element's schema as the array's `items`.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: SchemaProbe
    let node: ProbeNode
    let codingPath: [any CodingKey]
    let minimal: Bool
    private(set) var currentIndex = 0

    init(probe: SchemaProbe, node: ProbeNode, codingPath: [any CodingKey], minimal: Bool) {
        self.probe = probe
        self.node = node
        self.codingPath = codingPath
        self.minimal = minimal
    }

    var count: Int? { minimal ? 0 : nil }
    var isAtEnd: Bool { minimal || currentIndex > 0 }

    mutating func decodeNil() -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = probe.probe(T.self, member: "[]")
        node.elements = .finished(schema)
        currentIndex += 1
        guard let value else { throw SchemaProbe.NoStandIn() }
        return value
    }

    private mutating func child(shape: ProbeNode.Shape) -> ProbeDecoder {
        let child = ProbeNode()
        child.shape = shape
        node.elements = child
        currentIndex += 1
        return ProbeDecoder(probe: probe, node: child, codingPath: codingPath + [CodingPathKey.index(0)], minimal: minimal)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
        child(shape: .object).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
        child(shape: .array).unkeyedContainer()
    }

    mutating func superDecoder() -> any Decoder { child(shape: .unknown) }
}
