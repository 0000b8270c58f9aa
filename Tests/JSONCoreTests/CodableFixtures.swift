import JSONCore

// Codable types the Codable tests share: each shape the encoder, decoder and schema
// derivation must handle, written as an app would write them (no hand-written coding).

struct Item: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done: Bool
}

struct Widths: Codable, Equatable {
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var uint: UInt
    var float: Float
    var double: Double
}

struct Note: Codable, Equatable {
    var text: String
    var author: String?
    var tags: [String]
    var scores: [String: Int]
}

enum Color: String, Codable, CaseIterable, Equatable {
    case red, green, blue
}

enum Priority: Int, Codable, CaseIterable, Equatable {
    case low = 1, high = 9
}

/// A raw-value enumeration that cannot list its cases.
enum Mood: String, Codable, Equatable {
    case calm, busy
}

/// An enumeration with associated values, coded as Swift synthesizes it.
enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case square(Double)
    case point
}

struct Palette: Codable, Equatable {
    var main: Color
    var accents: [Color]
    var priority: Priority
}

/// Refers to itself through an array.
struct TreeNode: Codable, Equatable {
    var name: String
    var children: [TreeNode]
}

/// Holds a recursive type below the root.
struct Forest: Codable, Equatable {
    var trees: [TreeNode]
}

/// Encodes its base through a super encoder, as class hierarchies do.
class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {
    var goodBoy: Bool

    init(name: String, goodBoy: Bool) {
        self.goodBoy = goodBoy
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case goodBoy }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        goodBoy = try container.decode(Bool.self, forKey: .goodBoy)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(goodBoy, forKey: .goodBoy)
        try super.encode(to: container.superEncoder())
    }
}

/// Written with nested keyed and unkeyed containers by hand.
struct Point3: Codable, Equatable {
    var x: Int
    var y: Int
    var z: Int
    var label: String

    private enum CodingKeys: String, CodingKey { case coordinates, meta }
    private enum MetaKeys: String, CodingKey { case label }

    init(x: Int, y: Int, z: Int, label: String) {
        (self.x, self.y, self.z, self.label) = (x, y, z, label)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var coordinates = try container.nestedUnkeyedContainer(forKey: .coordinates)
        x = try coordinates.decode(Int.self)
        y = try coordinates.decode(Int.self)
        z = try coordinates.decode(Int.self)
        let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        label = try meta.decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var coordinates = container.nestedUnkeyedContainer(forKey: .coordinates)
        try coordinates.encode(x)
        try coordinates.encode(y)
        try coordinates.encode(z)
        var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        try meta.encode(label, forKey: .label)
    }
}

/// States its own schema.
struct Percent: Codable, Equatable, JSONSchemaProviding {
    var value: Int

    init(_ value: Int) { self.value = value }

    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(value)
    }

    static var jsonSchema: JSONValue { ["type": "integer", "minimum": 0, "maximum": 100] }
}

struct Progress: Codable, Equatable {
    var done: Percent
    var mood: Mood?
}

/// Encodes and decodes through a round trip, the way every Codable test checks values.
func roundTrip<T: Codable>(_ value: T) throws -> (json: JSONValue, back: T) {
    let json = try JSONValueEncoder().encode(value)
    return (json, try JSONValueDecoder().decode(T.self, from: json))
}

/// The decoding error for `json` as a `T`, if any.
func decodingError<T: Decodable>(_ type: T.Type, _ json: JSONValue) -> JSONDecodingError? {
    do {
        _ = try JSONValueDecoder().decode(T.self, from: json)
        return nil
    } catch {
        return error
    }
}
