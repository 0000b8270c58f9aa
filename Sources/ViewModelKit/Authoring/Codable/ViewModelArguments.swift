import JSONCore

/// Creation arguments written as a plain `Codable` struct, each default written once, in
/// its property:
///
/// ```swift
/// struct Arguments: ViewModelArguments {
///     var folder = "inbox"
///     var pageSize = 50
/// }
/// ```
///
/// The `JSONConvertible` conformance that ``ViewModel/Arguments`` needs comes with it:
///
/// - `init(json:)` decodes the given members over the encoded default instance (`init()`),
///   so omitted members (and members given as `null`) take their defaults; a member the
///   type does not declare is rejected with the same error as
///   `JSONObjectDecoder.rejectUnknownMembers(allowed:)` gives.
/// - `jsonSchema` is the schema derived from the type (see
///   `JSONSchemaBuilder.schema(for:)`) with each property's `default`, and no
///   member required that has one.
/// - `jsonValue` is the encoded value.
///
/// For a property whose derived schema is too loose (bounds, a pattern, a description),
/// give its schema in ``memberSchemas``; the default is still added from the property.
public protocol ViewModelArguments: Codable, Sendable, JSONConvertible {
    /// The arguments when the client gives none: every property at its default.
    init()
    /// Schemas replacing the derived ones of some properties, by property name (without
    /// `default`, which is added from the property). Empty unless the type says otherwise.
    static var memberSchemas: [String: JSONValue] { get }
}

extension ViewModelArguments {
    /// No replacements: every property keeps its derived schema.
    public static var memberSchemas: [String: JSONValue] { [:] }

    /// Decodes the given members over the defaults; rejects members the type does not declare.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let given = try JSONObjectDecoder(json)
        // No member given (`vm.create` without `args`, the common case): every member takes
        // its default, which is `init()` itself; decoding `init()`'s own encoding through
        // Codable would rebuild the same value, at a high price per create
        // (ViewModelDaemon.docc/Performance.md).
        if given.object.isEmpty {
            self.init()
            return
        }
        let derived = JSONSchemaBuilder.derivedSchema(for: Self.self)
        if derived["additionalProperties"] == false, let properties = derived["properties"]?.objectValue {
            try given.rejectUnknownMembers(allowed: Set(properties.keys))
        }
        var merged = Self.defaultMembers
        for (key, value) in given.object where !(value.isNull && merged.contains(key)) {
            merged[key] = value
        }
        self = try JSONValueDecoder().decodeThroughCodable(Self.self, from: .object(merged))
    }

    /// The encoded arguments (every member, `nil` optionals left out).
    public var jsonValue: JSONValue {
        (try? JSONValueEncoder().encodeThroughCodable(self)) ?? .object(JSONObject())
    }

    /// The derived schema with ``memberSchemas`` in place and each property's `default`.
    public static var jsonSchema: JSONValue {
        let derived = JSONSchemaBuilder.derivedSchema(for: Self.self)
        guard case .object(var schema) = derived, let properties = schema["properties"]?.objectValue else { return derived }
        let defaults = defaultMembers
        let replacements = memberSchemas
        var described = JSONObject(minimumCapacity: properties.count)
        for (name, property) in properties {
            var member = replacements[name] ?? property
            if let value = defaults[name], case .object(var object) = member {
                object["default"] = value
                member = .object(object)
            }
            described.append(uniqueKey: name, member)
        }
        schema["properties"] = .object(described)
        if let required = schema["required"]?.arrayValue {
            let stillRequired = required.filter { name in name.stringValue.map { defaults[$0] == nil } ?? true }
            schema["required"] = stillRequired.isEmpty ? nil : .array(stillRequired)
        }
        return .object(schema)
    }

    /// The members of the encoded default instance.
    private static var defaultMembers: JSONObject {
        (try? JSONValueEncoder().encodeThroughCodable(Self()))?.objectValue ?? JSONObject()
    }
}
