/// One operation of a JSON Patch (RFC 6902).
public enum JSONPatchOperation: Sendable, Hashable, CustomStringConvertible {
    /// Inserts `value` at `path` (before the element an array index names; `-` appends), or
    /// sets the member.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the member or element at `path`, which must exist.
    case remove(path: JSONPointer)
    /// Replaces the value at `path`, which must exist.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path` (never into its own child).
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails the patch unless the value at `path` equals `value` (JSON equality: `1 == 1.0`).
    case test(path: JSONPointer, value: JSONValue)

    /// The `op` member's value.
    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The location the operation changes (or tests).
    public var path: JSONPointer {
        switch self {
        case let .add(path, _), let .remove(path), let .replace(path, _), let .test(path, _): path
        case let .move(_, path), let .copy(_, path): path
        }
    }

    /// The operation object, members in the order `op`, `from`, `path`, `value`.
    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: 3)
        object.append(uniqueKey: "op", .string(name))
        switch self {
        case let .add(path, value), let .replace(path, value), let .test(path, value):
            object.append(uniqueKey: "path", .string(path.description))
            object.append(uniqueKey: "value", value)
        case let .remove(path):
            object.append(uniqueKey: "path", .string(path.description))
        case let .move(from, path), let .copy(from, path):
            object.append(uniqueKey: "from", .string(from.description))
            object.append(uniqueKey: "path", .string(path.description))
        }
        return .object(object)
    }

    /// Reads one operation object (throws ``JSONPatchError/Reason/malformedOperation(_:)`` or
    /// ``JSONPatchError/Reason/invalidPointer(_:_:)``); unknown members are ignored, as RFC 6902 asks.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .object(let object) = json else {
            throw JSONPatchError(reason: .malformedOperation("an operation must be an object, got \(json.typeName)"))
        }
        guard case .string(let op)? = object["op"] else {
            throw JSONPatchError(reason: .malformedOperation("an operation needs a string \"op\""))
        }
        func pointer(_ member: String) throws(JSONPatchError) -> JSONPointer {
            guard case .string(let text)? = object[member] else {
                throw JSONPatchError(reason: .malformedOperation("\"\(op)\" needs a string \"\(member)\""))
            }
            return try JSONPointer(parsing: text)
        }
        func value() throws(JSONPatchError) -> JSONValue {
            guard let value = object["value"] else {
                throw JSONPatchError(reason: .malformedOperation("\"\(op)\" needs a \"value\""))
            }
            return value
        }
        switch op {
        case "add": self = .add(path: try pointer("path"), value: try value())
        case "remove": self = .remove(path: try pointer("path"))
        case "replace": self = .replace(path: try pointer("path"), value: try value())
        case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": self = .test(path: try pointer("path"), value: try value())
        default: throw JSONPatchError(reason: .malformedOperation("unknown op \(JSONValue.string(op))"))
        }
    }

    /// "replace /items/3/done", for error messages and logs.
    public var description: String {
        switch self {
        case let .move(from, path), let .copy(from, path): "\(name) \(from) -> \(path)"
        default: "\(name) \(path)"
        }
    }
}
