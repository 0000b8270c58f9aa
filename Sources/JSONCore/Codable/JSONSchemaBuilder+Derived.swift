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
    /// What the derivation cannot see is not guessed. A raw-value enumeration that is not
    /// `CaseIterable` (and has no case for the stand-in raw value, `""` or `0`) is its raw
    /// type, and an enumeration with associated values an object of any members: true,
    /// if loose, at the root, as elements, as dictionary values and as optional members. As a
    /// required struct member, though, it stops the struct's `init(from:)`, so every member
    /// after it would go unseen: its place holds a ``SchemaDerivationProblem`` naming the
    /// type and the member instead (``derivationProblem(in:)`` finds it; the kit's registry
    /// refuses the type with it). Conform such types to `CaseIterable` or
    /// ``JSONSchemaProviding`` for a precise schema.
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
    /// (and `null` among its `enum` cases) when `schema` names one type, else `anyOf` it and
    /// `{"type": "null"}`.
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        if case .object(var object) = schema, case .string(let type)? = object["type"] {
            object["type"] = [.string(type), "null"]
            // An enumeration's list must admit `null` too, or the widened type is a lie.
            if case .array(var cases)? = object["enum"], !cases.contains(.null) {
                cases.append(.null)
                object["enum"] = .array(cases)
            }
            return .object(object)
        }
        if case .object(let object) = schema, object.isEmpty { return schema }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}
