/// A `Codable` type that states its own JSON Schema instead of the derived one: tighter
/// bounds, a pattern, descriptions, or a shape the derivation cannot see (an enumeration
/// with associated values, a custom `init(from:)`).
///
/// ```swift
/// struct Percent: Codable, Sendable, JSONSchemaProviding {
///     var value: Int
///     init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
///     func encode(to encoder: any Encoder) throws { var single = encoder.singleValueContainer(); try single.encode(value) }
///     static var jsonSchema: JSONValue { ["type": "integer", "minimum": 0, "maximum": 100] }
/// }
/// ```
///
/// The schema is used wherever the type appears (as a port's value, or as a member of
/// another `Codable` type), and vmd validates incoming values against it before decoding.
public protocol JSONSchemaProviding {
    /// A JSON Schema (2020-12) that every encoded value satisfies.
    static var jsonSchema: JSONValue { get }
}
