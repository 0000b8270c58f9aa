/// A keyed container of ``ProbeDecoder``. Members read with `decode` are required, with
/// `decodeIfPresent` optional (and nullable). Reading `allKeys` means a dictionary: the
/// container offers one made-up key and records its value's schema.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    let node: ProbeNode
    let codingPath: [any CodingKey]
    let minimal: Bool

    /// The dictionary member the probe offers; no synthesized `CodingKeys` accepts it.
    static var mapKey: String { "\u{0}member" }

    var allKeys: [Key] {
        guard let key = Key(stringValue: Self.mapKey) else {
            // Keys the probe cannot name (an enumeration with associated values): leave it open.
            node.incomplete = true
            node.hasUnnamedKeys = true
            return []
        }
        node.shape = .map
        return minimal ? [] : [key]
    }

    func contains(_ key: Key) -> Bool { !minimal }

    func decodeNil(forKey key: Key) -> Bool { minimal }

    private func record(_ key: some CodingKey, _ child: ProbeNode, required: Bool) {
        if case .map = node.shape {
            node.elements = child
        } else {
            node.setProperty(key.stringValue, child, required: required)
        }
    }

    private func member(_ key: Key) -> String {
        if case .map = node.shape { return "[]" }
        return "." + key.stringValue
    }

    private func required<T: Decodable>(_ key: Key, _ type: T.Type) throws -> T {
        let (schema, value) = probe.probe(T.self, member: member(key))
        let problem = value == nil ? probe.problem(member: member(key), of: T.self) : nil
        record(key, .finished(problem?.marker ?? schema), required: true)
        guard let value else {
            node.incomplete = true  // init(from:) stops here; later members go unseen
            throw SchemaProbe.NoStandIn()
        }
        return value
    }

    private func optional<T: Decodable>(_ key: Key, _ type: T.Type) -> T? {
        let (schema, _) = probe.probe(T.self, member: member(key))
        record(key, .finished(JSONSchemaBuilder.nullable(schema)), required: false)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(key, type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(key, type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(key, type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(key, type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(key, type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(key, type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(key, type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(key, type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try required(key, type) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(key, type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(key, type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(key, type) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(key, type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(key, type) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optional(key, type) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optional(key, type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(key, type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(key, type) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(key, type) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optional(key, type) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optional(key, type) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(key, type) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(key, type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { optional(key, type) }

    private func child(_ key: some CodingKey, shape: ProbeNode.Shape) -> ProbeDecoder {
        let child = ProbeNode()
        child.shape = shape
        record(key, child, required: true)
        return ProbeDecoder(probe: probe, node: child, codingPath: codingPath + [key], minimal: minimal)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedDecodingContainer<NestedKey> {
        child(key, shape: .object).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
        child(key, shape: .array).unkeyedContainer()
    }

    func superDecoder() -> any Decoder { child(CodingPathKey.superKey, shape: .unknown) }

    func superDecoder(forKey key: Key) -> any Decoder { child(key, shape: .unknown) }
}
