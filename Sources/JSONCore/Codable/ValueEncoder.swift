/// The `Encoder` behind ``JSONValueEncoder``: writes one value into an ``EncodingNode``.
/// It is its own single-value container; keyed and unkeyed containers write member and
/// element nodes of the same node.
struct ValueEncoder: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: EncodingNode, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedValueEncodingContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Writes `value` here: scalars directly, `JSONConvertible` types through their
    /// hand-written form, anything else through its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let scalar = try ValueEncoder.scalar(value, at: codingPath) {
            node.setValue(scalar)
        } else if let convertible = value as? any JSONConvertible {
            node.setValue(convertible.jsonValue)
        } else {
            try value.encode(to: self)
        }
    }

    /// The JSON form of the standard scalar types (`nil` for any other type).
    static func scalar<T>(_ value: T, at codingPath: @autoclosure () -> [any CodingKey]) throws -> JSONValue? {
        switch value {
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Int64: return .integer(value)
        case let value as Double: return try double(value, at: codingPath())
        case let value as Int8: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Int32: return .integer(Int64(value))
        case let value as UInt8: return .integer(Int64(value))
        case let value as UInt16: return .integer(Int64(value))
        case let value as UInt32: return .integer(Int64(value))
        case let value as UInt: return try unsigned(UInt64(value), at: codingPath())
        case let value as UInt64: return try unsigned(value, at: codingPath())
        case let value as Float:
            guard value.isFinite else { throw invalid(value, "Float \(value) is not finite; JSON has no form for it", codingPath()) }
            return .double(Double(value))
        default: return nil
        }
    }

    static func double(_ value: Double, at codingPath: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { throw invalid(value, "Double \(value) is not finite; JSON has no form for it", codingPath()) }
        return .double(value)
    }

    /// An integer when it fits in `Int64`, else a double when that holds it exactly.
    static func unsigned(_ value: UInt64, at codingPath: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        if value <= UInt64(Int64.max) { return .integer(Int64(value)) }
        let approximation = Double(value)
        guard approximation < 18_446_744_073_709_551_616.0, UInt64(approximation) == value else {
            throw invalid(value, "\(value) has no exact JSON number form (above Int64.max and not a double)", codingPath())
        }
        return .double(approximation)
    }

    static func invalid(_ value: Any, _ message: String, _ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws { node.setValue(.null) }
    func encode(_ value: Bool) throws { node.setValue(.bool(value)) }
    func encode(_ value: String) throws { node.setValue(.string(value)) }
    func encode(_ value: Double) throws { node.setValue(try ValueEncoder.double(value, at: codingPath)) }
    func encode(_ value: Int) throws { node.setValue(.integer(Int64(value))) }
    func encode(_ value: Int64) throws { node.setValue(.integer(value)) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}
