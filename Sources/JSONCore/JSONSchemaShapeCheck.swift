/// A schema's check compiled once into a tree of plain tests, for schemas built from the
/// keywords records use: `type`, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `items` and boolean subschemas (annotations such as `description`
/// and `default` are ignored, as everywhere). A value passes without running the schema
/// interpreter (``JSONSchema/validate(_:)``) or allocating: a record of known members costs a
/// type test, one scan of its members and a bit mask for the required ones.
///
/// ``init(_:)`` returns `nil` for any schema with another keyword; ``admits(_:)`` answers
/// exactly what ``JSONSchema/isValid(_:)`` answers for the schema it came from (a refused
/// value then goes to the interpreter, which words the violation).
///
/// Schemas that check only the type keep ``JSONSchemaTypeCheck``, which the compiler inlines
/// (as this tree, the Int `send` cost ~400 instructions more in callgrind, `.ci/instructions`).
/// A class: as a struct around the private node class, copying and destroying an optional
/// one went through the runtime's generic value witnesses.
package final class JSONSchemaShapeCheck: Sendable {
    private let root: Node

    /// The check `schema` compiles to, or `nil` when it uses a keyword the check does not cover.
    package init?(_ schema: JSONSchema) {
        guard let root = Node(schema.root) else { return nil }
        self.root = root
    }

    /// Whether `value` satisfies the schema: the same answer as ``JSONSchema/isValid(_:)``,
    /// with the same type rules (an integral `2.0` is an integer; every integer is a number).
    package func admits(_ value: JSONValue) -> Bool {
        root.admits(value)
    }

    /// One compiled (sub)schema. A class, so that members and items can nest.
    private final class Node: Sendable {
        /// `false` for the `false` schema (nothing passes).
        let admitsAnything: Bool
        let admitsNothing: Bool
        /// The types `type` allows; `nil` when the schema has no `type`.
        let types: JSONSchemaNode.Types?
        /// The values `enum` and `const` allow (each listed separately; both must hold).
        let enumValues: [JSONValue]?
        let constValue: JSONValue?
        /// `properties`, in a list scanned by name (records have few members; a list of short
        /// names compares faster than hashing each key).
        let properties: [(name: String, node: Node)]
        /// Bit `i` set when `properties[i]` is required.
        let requiredMask: UInt64
        /// `additionalProperties`; `nil` when absent (any other member passes).
        let additional: Node?
        let items: Node?

        init?(_ node: JSONSchemaNode) {
            let keywords = node.keywords
            if let outcome = keywords.constantOutcome {
                (admitsAnything, admitsNothing) = (outcome, !outcome)
                (types, enumValues, constValue, properties, requiredMask, additional, items) = (nil, nil, nil, [], 0, nil, nil)
                return
            }
            guard keywords.reference == nil,
                  keywords.minimum == nil, keywords.maximum == nil,
                  keywords.exclusiveMinimum == nil, keywords.exclusiveMaximum == nil,
                  keywords.multipleOf == nil, keywords.minLength == nil, keywords.maxLength == nil,
                  keywords.pattern == nil, keywords.minProperties == nil, keywords.maxProperties == nil,
                  keywords.prefixItems.isEmpty, keywords.minItems == nil, keywords.maxItems == nil,
                  !keywords.uniqueItems, keywords.allOf.isEmpty, keywords.anyOf.isEmpty, keywords.oneOf.isEmpty,
                  keywords.not == nil,
                  keywords.propertyOrder.count <= 64,
                  // A required member without a schema of its own is left to the interpreter.
                  keywords.required.allSatisfy({ keywords.properties[$0] != nil })
            else { return nil }
            var properties: [(name: String, node: Node)] = []
            var requiredMask: UInt64 = 0
            for name in keywords.propertyOrder {
                guard let member = keywords.properties[name], let compiled = Node(member) else { return nil }
                if keywords.required.contains(name) { requiredMask |= 1 << UInt64(properties.count) }
                properties.append((name, compiled))
            }
            var additional: Node? = nil
            if let extra = keywords.additionalProperties {
                guard let compiled = Node(extra) else { return nil }
                additional = compiled
            }
            var items: Node? = nil
            if let element = keywords.items {
                guard let compiled = Node(element) else { return nil }
                items = compiled
            }
            admitsAnything = keywords.types == nil && keywords.enumValues == nil && keywords.constValue == nil
                && properties.isEmpty && additional == nil && items == nil
            admitsNothing = false
            types = keywords.types
            enumValues = keywords.enumValues
            constValue = keywords.constValue
            self.properties = properties
            self.requiredMask = requiredMask
            self.additional = additional
            self.items = items
        }

        func admits(_ value: JSONValue) -> Bool {
            if admitsAnything { return true }
            if admitsNothing { return false }
            if let types, !Self.admits(value, types) { return false }
            if let constValue, constValue != value { return false }
            if let enumValues, !enumValues.contains(value) { return false }
            switch value {
            case .object(let object): return admits(object)
            case .array(let elements):
                guard let items else { return true }
                for element in elements where !items.admits(element) { return false }
                return true
            default: return true
            }
        }

        private func admits(_ object: JSONObject) -> Bool {
            var seen: UInt64 = 0
            members: for (key, member) in object {
                for index in properties.indices where properties[index].name == key {
                    guard properties[index].node.admits(member) else { return false }
                    seen |= 1 << UInt64(index)
                    continue members
                }
                if let additional, !additional.admits(member) { return false }
            }
            return seen & requiredMask == requiredMask
        }

        /// Whether `value`'s JSON type is among `types`.
        private static func admits(_ value: JSONValue, _ types: JSONSchemaNode.Types) -> Bool {
            JSONSchemaTypeCheck.admits(value, types)
        }
    }
}
