/// An unkeyed container of ``ValueDecoder`` over one JSON array.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the next element; fails past the end.
    private mutating func next(expected: String) throws(JSONDecodingError) -> ValueDecoder {
        let key = CodingPathKey.index(currentIndex)
        guard currentIndex < elements.count else {
            throw JSONDecodingError(path: CodingPathKey.jsonPath(codingPath + [key]), expected: expected, got: "missing",
                                    detail: "the array has only \(elements.count) elements")
        }
        let decoder = ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [key])
        currentIndex += 1
        return decoder
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(expected: "boolean").decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(expected: "string").decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(expected: "number").decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(expected: "number").decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(expected: "integer").decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(expected: "integer").decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(expected: "a value").decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(expected: "object").container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next(expected: "array").unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(expected: "a value") }
}
