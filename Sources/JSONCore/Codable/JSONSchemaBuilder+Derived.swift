import Synchronization

/// Schemas derived once per type (``JSONSchemaBuilder/schema(for:)``).
private let derivedSchemas = Mutex<[ObjectIdentifier: JSONValue]>([:])

extension JSONSchemaBuilder {
    /// The JSON Schema (2020-12) of a `Decodable` type, derived from its `init(from:)`
    /// without an instance, and cached: the first call per type derives it, later ones
    /// return the same schema.
    ///
    /// A type conforming to ``JSONSchemaProviding`` gives its own schema, and so does a
    /// ``JSONConvertible`` one (wherever either appears, also as a member). Otherwise:
    ///
    /// - a struct is `{"type": "object", "properties": …, "required": […],
    ///   "additionalProperties": false}`, properties in declaration order, `Optional`
    ///   members not required and also accepting `null`;
    /// - an array is `{"type": "array", "items": …}`, a `[String: T]` is
    ///   `{"type": "object", "additionalProperties": …}`;
    /// - `Int` and `Int64` are `{"type": "integer"}`, narrower and unsigned integers add
    ///   `minimum` and `maximum`, `Double` and `Float` are `{"type": "number"}`;
    /// - a `CaseIterable` enumeration with raw values is its raw type plus `enum`, the cases;
    /// - a type that refers to itself (`children: [Node]`) refers back with `$ref`
    ///   (`"#"`, or `"#/$defs/Node"` when it is nested in another type).
    ///
    /// What the derivation cannot see is left open rather than guessed: a raw-value
    /// enumeration that is not `CaseIterable`, or an enumeration with associated values,
    /// becomes its bare JSON type (an object of any members), and a struct holding one as a
    /// non-optional member no longer rejects unknown members. Conform such types to
    /// ``JSONSchemaProviding`` (or `CaseIterable`) for a precise schema.
    public static func schema<T: Decodable>(for type: T.Type) -> JSONValue {
        SchemaProbe.givenSchema(of: T.self) ?? derivedSchema(for: T.self)
    }

    /// The schema derived from `T`'s `init(from:)` as ``schema(for:)`` describes, even when
    /// `T` states its own (its members' own schemas still count): how a `JSONConvertible`
    /// conformance built on `Codable` publishes a derived schema without calling itself.
    /// Derived once per type, then cached.
    public static func derivedSchema<T: Decodable>(for type: T.Type) -> JSONValue {
        let key = ObjectIdentifier(T.self)
        if let cached = derivedSchemas.withLock({ $0[key] }) { return cached }
        let derived = SchemaProbe().rootSchema(of: T.self)
        derivedSchemas.withLock { $0[key] = derived }
        return derived
    }

    /// `schema` widened to also accept `null`, as `Optional`'s schema is: `"type": [t, "null"]`
    /// when `schema` names one type, else `anyOf` it and `{"type": "null"}`.
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        if case .object(var object) = schema, case .string(let type)? = object["type"] {
            object["type"] = [.string(type), "null"]
            return .object(object)
        }
        if case .object(let object) = schema, object.isEmpty { return schema }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}
