import JSONCore

/// Reads the JSON Schemas of `vm.types` into ``GenType``s, declaring a record for every object
/// schema with properties and an alias for every root a `$ref` points back to, each under a
/// name from one ``GenNames``. Records with the same schema (and no `$ref` inside) are declared
/// once. Everything follows the order of the input, so the same input gives the same model.
struct SchemaReader {
    private(set) var declarations: [GenDeclaration] = []
    var names = GenNames()
    /// Declared records by their schema, for schemas without `$ref` (whose meaning is local).
    private var recordsBySchema: [JSONValue: String] = [:]

    /// Where a `$ref` of the schema being read points: `#` is the root, `#/$defs/X` a definition.
    private struct Scope {
        var rootName: String?
        var definitions: [String: String] = [:]
    }

    /// The type of `schema`, a root (an input's, output's, action's or the arguments' schema);
    /// `name` is the name its declarations start from when it has no `title`.
    mutating func read(root schema: JSONValue, name: String) -> GenType {
        var scope = Scope()
        let wanted = schema["title"]?.stringValue ?? name
        if Self.refers(schema, to: "#") { scope.rootName = names.allocate(wanted) }
        let definitions = schema["$defs"]?.objectValue ?? JSONObject()
        for (key, _) in definitions { scope.definitions[key] = names.allocate(key) }
        for (key, definition) in definitions {
            guard let declared = scope.definitions[key] else { continue }
            declare(definition, as: declared, scope: scope)
        }
        if let rootName = scope.rootName {
            declare(schema, as: rootName, scope: scope)
            return .named(rootName)
        }
        return type(of: schema, hint: wanted, scope: scope)
    }

    /// Declares `schema` under the allocated `name`: a record when it is one, else an alias.
    private mutating func declare(_ schema: JSONValue, as name: String, scope: Scope) {
        let summary = schema["description"]?.stringValue ?? ""
        if Self.isRecord(schema) {
            declarations.append(GenDeclaration(name: name, summary: summary, body: .record(fields(of: schema, owner: name, scope: scope)), schema: schema))
        } else {
            declarations.append(GenDeclaration(name: name, summary: summary, body: .alias(type(of: schema, hint: name, scope: scope)), schema: schema))
        }
    }

    private mutating func type(of schema: JSONValue, hint: String, scope: Scope) -> GenType {
        guard case .object(let object) = schema else { return .any }
        if let reference = object["$ref"]?.stringValue {
            if reference == "#", let root = scope.rootName { return .named(root) }
            let prefix = "#/$defs/"
            if reference.hasPrefix(prefix), let name = scope.definitions[String(reference.dropFirst(prefix.count))] {
                return .named(name)
            }
            return .any
        }
        if let values = object["enum"]?.arrayValue { return values.isEmpty ? .any : .literals(values) }
        if let constant = object["const"] { return .literals([constant]) }
        for key in ["anyOf", "oneOf"] {
            if let branches = object[key]?.arrayValue, !branches.isEmpty {
                var members: [GenType] = []
                for (index, branch) in branches.enumerated() {
                    members.append(type(of: branch, hint: index == 0 ? hint : hint + "Option" + String(index + 1), scope: scope))
                }
                return .union(of: members)
            }
        }
        switch object["type"] {
        case .string(let kind)?:
            return type(of: object, kind: kind, hint: hint, scope: scope)
        case .array(let kinds)?:
            let members = kinds.compactMap(\.stringValue).map { type(of: object, kind: $0, hint: hint, scope: scope) }
            return members.isEmpty ? .any : .union(of: members)
        default:
            if object["properties"] != nil || object["additionalProperties"] != nil {
                return type(of: object, kind: "object", hint: hint, scope: scope)
            }
            if object["items"] != nil { return type(of: object, kind: "array", hint: hint, scope: scope) }
            return .any
        }
    }

    private mutating func type(of object: JSONObject, kind: String, hint: String, scope: Scope) -> GenType {
        switch kind {
        case "null": return .null
        case "boolean": return .boolean
        case "integer": return .integer
        case "number": return .number
        case "string": return .string
        case "array":
            guard let items = object["items"] else { return .array(.any) }
            return .array(type(of: items, hint: hint + "Item", scope: scope))
        case "object":
            let schema = JSONValue.object(object)
            if Self.isRecord(schema) { return .named(record(schema, hint: hint, scope: scope)) }
            switch object["additionalProperties"] {
            case .object(let values)?: return .dictionary(type(of: .object(values), hint: hint + "Value", scope: scope))
            default: return .dictionary(.any)
            }
        default:
            return .any
        }
    }

    /// The name of the record declared for `schema`, declaring it first when needed.
    private mutating func record(_ schema: JSONValue, hint: String, scope: Scope) -> String {
        let key = Self.withoutAnnotations(schema)
        let local = !Self.refers(schema, to: nil)
        if local, let known = recordsBySchema[key] { return known }
        let name = names.allocate(schema["title"]?.stringValue ?? hint)
        if local { recordsBySchema[key] = name }
        declare(schema, as: name, scope: scope)
        return name
    }

    private mutating func fields(of schema: JSONValue, owner: String, scope: Scope) -> [GenField] {
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var fields: [GenField] = []
        for (key, property) in schema["properties"]?.objectValue ?? JSONObject() {
            let type = type(of: property, hint: owner + GenNames.typeIdentifier(key), scope: scope)
            fields.append(GenField(key: key, type: type, isRequired: required.contains(key),
                                   summary: property["description"]?.stringValue ?? ""))
        }
        return fields
    }

    /// An object schema with properties, or a closed one (`additionalProperties: false`).
    private static func isRecord(_ schema: JSONValue) -> Bool {
        if let properties = schema["properties"]?.objectValue, !properties.isEmpty { return true }
        return schema["additionalProperties"] == .bool(false)
            && (schema["type"] == .string("object") || schema["properties"] != nil)
    }

    /// Whether `schema` holds a `$ref` (to `target`, or to anything when `target` is nil).
    private static func refers(_ schema: JSONValue, to target: String?) -> Bool {
        switch schema {
        case .object(let object):
            if let reference = object["$ref"]?.stringValue, target == nil || reference == target { return true }
            return object.values.contains { refers($0, to: target) }
        case .array(let elements):
            return elements.contains { refers($0, to: target) }
        default:
            return false
        }
    }

    /// `schema` without the annotations `description`, `title`, `default` and `examples`, at
    /// every level (property names kept): two records that differ only in those are one type.
    private static func withoutAnnotations(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        var kept = JSONObject()
        for (key, value) in object where !["description", "title", "default", "examples"].contains(key) {
            switch (key, value) {
            case ("properties", .object(let members)), ("$defs", .object(let members)):
                var stripped = JSONObject()
                for (name, member) in members { stripped.append(uniqueKey: name, withoutAnnotations(member)) }
                kept.append(uniqueKey: key, .object(stripped))
            case ("anyOf", .array(let branches)), ("oneOf", .array(let branches)):
                kept.append(uniqueKey: key, .array(branches.map(withoutAnnotations)))
            case ("items", _), ("additionalProperties", _):
                kept.append(uniqueKey: key, withoutAnnotations(value))
            default:
                kept.append(uniqueKey: key, value)
            }
        }
        return .object(kept)
    }
}
