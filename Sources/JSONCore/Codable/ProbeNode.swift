/// What the schema probe learned about one value: the shape its `init(from:)` asked for.
final class ProbeNode {
    enum Shape {
        /// Nothing was asked (any value).
        case unknown
        /// A finished schema (a scalar, or a probed type).
        case schema(JSONValue)
        /// A keyed container with fixed members (a struct).
        case object
        /// A keyed container read through `allKeys` (a dictionary).
        case map
        /// An unkeyed container.
        case array
    }

    var shape = Shape.unknown
    /// `decodeNil()` was asked: `null` is accepted too.
    var nullable = false
    /// Members of an object, in the order asked.
    private(set) var properties: [(name: String, node: ProbeNode)] = []
    /// Members read with `decode` rather than `decodeIfPresent`.
    private(set) var required: [String] = []
    /// The value schema of a map, or the element schema of an array.
    var elements: ProbeNode?
    /// The `init(from:)` stopped early or asked for keys it would not name, so members
    /// beyond `properties` may exist: the object is not closed.
    var incomplete = false
    /// The `init(from:)` read `allKeys` of keys the probe cannot name (an enumeration with
    /// associated values).
    var hasUnnamedKeys = false

    static func finished(_ schema: JSONValue) -> ProbeNode {
        let node = ProbeNode()
        node.shape = .schema(schema)
        return node
    }

    /// Records member `name` (replacing an earlier record of the same name).
    func setProperty(_ name: String, _ node: ProbeNode, required isRequired: Bool) {
        if let position = properties.firstIndex(where: { $0.name == name }) {
            properties[position].node = node
        } else {
            properties.append((name, node))
        }
        if isRequired, !required.contains(name) { required.append(name) }
    }

    var schema: JSONValue {
        let base: JSONValue
        switch shape {
        case .unknown:
            return [:]
        case .schema(let schema):
            base = schema
        case .object:
            var object: JSONObject = ["type": "object"]
            var members = JSONObject(minimumCapacity: properties.count)
            for property in properties { members[property.name] = property.node.schema }
            object["properties"] = .object(members)
            if !required.isEmpty { object["required"] = .array(required.map(JSONValue.string)) }
            if !incomplete { object["additionalProperties"] = false }
            base = .object(object)
        case .map:
            base = ["type": "object", "additionalProperties": elements?.schema ?? [:]]
        case .array:
            base = ["type": "array", "items": elements?.schema ?? [:]]
        }
        return nullable ? JSONSchemaBuilder.nullable(base) : base
    }
}
