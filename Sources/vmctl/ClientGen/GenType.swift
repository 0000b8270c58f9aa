import JSONCore

/// A value's type in a generated client, read from a JSON Schema by ``SchemaReader``: one case
/// per schema form the kit derives (Sources/JSONCore/Codable/JSONSchemaBuilder+Derived.swift),
/// each spelled by every emitter.
indirect enum GenType: Hashable {
    /// Any JSON value: `{}`, or a schema the reader does not narrow.
    case any
    case null
    case boolean
    case integer
    case number
    case string
    /// One of fixed values (`enum`, `const`): strings, numbers, booleans or null.
    case literals([JSONValue])
    case array(GenType)
    /// An object of any keys, each value of this type (`additionalProperties` alone).
    case dictionary(GenType)
    /// A ``GenDeclaration`` (a record or an alias), by its allocated name.
    case named(String)
    /// Any of these (`anyOf`, `oneOf`, a `type` array); a nullable type is a union with `.null`.
    case union([GenType])

    /// Whether `null` is a value of this type.
    var acceptsNull: Bool {
        switch self {
        case .null, .any: true
        case .literals(let values): values.contains(.null)
        case .union(let members): members.contains { $0.acceptsNull }
        default: false
        }
    }

    /// This type without `null` (`nil` when nothing else is left).
    var withoutNull: GenType? {
        switch self {
        case .null: return nil
        case .union(let members):
            let kept = members.compactMap(\.withoutNull)
            if kept.isEmpty { return nil }
            return kept.count == 1 ? kept[0] : .union(kept)
        case .literals(let values):
            let kept = values.filter { $0 != .null }
            return kept.isEmpty ? nil : .literals(kept)
        default: return self
        }
    }

    /// A union of `members`, flattened, duplicates removed, order kept.
    static func union(of members: [GenType]) -> GenType {
        var flat: [GenType] = []
        for member in members {
            let parts: [GenType] = if case .union(let inner) = member { inner } else { [member] }
            for part in parts where !flat.contains(part) { flat.append(part) }
        }
        if flat.contains(.any) { return .any }
        return flat.count == 1 ? flat[0] : .union(flat)
    }
}
