/// Turns a schema document into ``JSONSchemaNode``s, checking each keyword's shape.
struct JSONSchemaCompiler {
    /// Every `$ref` seen, with where it was, so unresolved ones are reported after compiling.
    var references: [(String, JSONPath)] = []

    mutating func compile(_ schema: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> JSONSchemaNode {
        var keywords = JSONSchemaNode.Keywords()
        switch schema {
        case .bool(let outcome):
            keywords.constantOutcome = outcome
            return JSONSchemaNode(keywords)
        case .object(let object):
            for (keyword, value) in object {
                try compileKeyword(keyword, value, at: path.appending(key: keyword), into: &keywords)
            }
            return JSONSchemaNode(keywords)
        default:
            throw JSONSchemaError(path: path, message: "a schema must be an object or a boolean, not \(schema.typeName)")
        }
    }

    private mutating func compileKeyword(
        _ keyword: String, _ value: JSONValue, at path: JSONPath, into keywords: inout JSONSchemaNode.Keywords
    ) throws(JSONSchemaError) {
        switch keyword {
        case "type":
            keywords.types = try types(value, at: path)
        case "enum":
            guard case .array(let values) = value else { throw shape(path, "an array") }
            keywords.enumValues = values
        case "const":
            keywords.constValue = value
        case "minimum": keywords.minimum = try number(value, at: path)
        case "maximum": keywords.maximum = try number(value, at: path)
        case "exclusiveMinimum": keywords.exclusiveMinimum = try number(value, at: path)
        case "exclusiveMaximum": keywords.exclusiveMaximum = try number(value, at: path)
        case "multipleOf":
            guard let divisor = try number(value, at: path).doubleValue, divisor > 0 else { throw shape(path, "a number > 0") }
            keywords.multipleOf = divisor
        case "minLength": keywords.minLength = try count(value, at: path)
        case "maxLength": keywords.maxLength = try count(value, at: path)
        case "minItems": keywords.minItems = try count(value, at: path)
        case "maxItems": keywords.maxItems = try count(value, at: path)
        case "minProperties": keywords.minProperties = try count(value, at: path)
        case "maxProperties": keywords.maxProperties = try count(value, at: path)
        case "uniqueItems":
            guard case .bool(let flag) = value else { throw shape(path, "a boolean") }
            keywords.uniqueItems = flag
        case "pattern":
            guard case .string(let source) = value else { throw shape(path, "a string") }
            do {
                _ = try Regex(source)
                keywords.pattern = source
            } catch {
                throw JSONSchemaError(path: path, message: "pattern \(JSONValue.string(source)) is not a valid regular expression")
            }
        case "required":
            guard case .array(let names) = value else { throw shape(path, "an array of strings") }
            keywords.required = try names.map { name throws(JSONSchemaError) in
                guard case .string(let text) = name else { throw shape(path, "an array of strings") }
                return text
            }
        case "properties":
            guard case .object(let members) = value else { throw shape(path, "an object") }
            for (name, subschema) in members {
                keywords.properties[name] = try compile(subschema, at: path.appending(key: name))
                keywords.propertyOrder.append(name)
            }
        case "additionalProperties":
            keywords.additionalProperties = try compile(value, at: path)
        case "items":
            keywords.items = try compile(value, at: path)
        case "prefixItems":
            keywords.prefixItems = try list(value, at: path)
        case "allOf": keywords.allOf = try list(value, at: path)
        case "anyOf": keywords.anyOf = try list(value, at: path)
        case "oneOf": keywords.oneOf = try list(value, at: path)
        case "not": keywords.not = try compile(value, at: path)
        case "$ref":
            guard case .string(let reference) = value else { throw shape(path, "a string") }
            keywords.reference = reference
            references.append((reference, path))
        default:
            break  // annotations and unknown keywords are ignored, per the specification
        }
    }

    private func shape(_ path: JSONPath, _ wanted: String) -> JSONSchemaError {
        JSONSchemaError(path: path, message: "must be \(wanted)")
    }

    private func types(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> JSONSchemaNode.Types {
        func single(_ name: JSONValue) throws(JSONSchemaError) -> JSONSchemaNode.Types {
            guard case .string(let text) = name, let match = JSONSchemaNode.Types.names.first(where: { $0.0 == text }) else {
                throw JSONSchemaError(path: path, message: "unknown type \(name) (use null, boolean, integer, number, string, array or object)")
            }
            return match.1
        }
        if case .array(let names) = value {
            var union: JSONSchemaNode.Types = []
            for name in names { union.formUnion(try single(name)) }
            return union
        }
        return try single(value)
    }

    private func number(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> JSONValue {
        guard value.isNumber else { throw shape(path, "a number") }
        return value
    }

    private func count(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> Int {
        guard let count = value.intValue, count >= 0 else { throw shape(path, "a non-negative integer") }
        return count
    }

    private mutating func list(_ value: JSONValue, at path: JSONPath) throws(JSONSchemaError) -> [JSONSchemaNode] {
        guard case .array(let schemas) = value, !schemas.isEmpty else { throw shape(path, "a non-empty array of schemas") }
        var nodes: [JSONSchemaNode] = []
        for (index, schema) in schemas.enumerated() {
            nodes.append(try compile(schema, at: path.appending(index: index)))
        }
        return nodes
    }
}
