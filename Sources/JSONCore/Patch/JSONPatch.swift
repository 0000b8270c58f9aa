/// A JSON Patch (RFC 6902): a sequence of operations that turns one JSON value into another.
///
/// ``apply(to:)`` runs the operations in order and fails as a whole (the value is left
/// unchanged) at the first one that cannot be applied. ``init(from:to:)`` computes a patch
/// between two values (see JSONPatch+Diff.swift for the rules it follows).
public struct JSONPatch: Sendable, Hashable, CustomStringConvertible {
    /// The operations, applied in order.
    public var operations: [JSONPatchOperation]

    /// A patch of the given operations.
    public init(_ operations: [JSONPatchOperation] = []) {
        self.operations = operations
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }

    /// The patch as its JSON array of operation objects.
    public var jsonValue: JSONValue { .array(operations.map(\.jsonValue)) }

    /// Reads a patch from its JSON array form.
    public init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(reason: .malformedOperation("a patch must be an array, got \(json.typeName)"))
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            do {
                operations.append(try JSONPatchOperation(json: element))
            } catch {
                var located = error
                located.operationIndex = position
                throw located
            }
        }
        self.operations = operations
    }

    /// The compact JSON text of the patch.
    public var description: String { jsonValue.encodedString() }

    /// `value` with every operation applied; throws the first failure.
    public func applied(to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        var copy = value
        try apply(to: &copy)
        return copy
    }

    /// Applies every operation to `value` in order. On failure `value` is left as it was.
    public func apply(to value: inout JSONValue) throws(JSONPatchError) {
        var working = value
        for (position, operation) in operations.enumerated() {
            do {
                try JSONPatch.apply(operation, to: &working)
            } catch {
                var located = error
                located.operationIndex = position
                located.operation = operation.description
                throw located
            }
        }
        value = working
    }

    static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPatchError) {
        switch operation {
        case let .add(path, value):
            try JSONPatch.add(value, at: path, in: &document)
        case let .remove(path):
            _ = try JSONPatch.remove(at: path, in: &document)
        case let .replace(path, value):
            try JSONPatch.replace(at: path, with: value, in: &document)
        case let .move(from, path):
            if from == path { return }
            if path.hasPrefix(from) { throw JSONPatchError(reason: .moveIntoItself(from: from, path: path)) }
            let moved = try JSONPatch.remove(at: from, in: &document)
            try JSONPatch.add(moved, at: path, in: &document)
        case let .copy(from, path):
            let copied = try JSONPatch.value(at: from, in: document)
            try JSONPatch.add(copied, at: path, in: &document)
        case let .test(path, value):
            guard try JSONPatch.value(at: path, in: document) == value else { throw JSONPatchError(reason: .testFailed(path)) }
        }
    }

    /// The value `pointer` names in `document`.
    public static func value(at pointer: JSONPointer, in document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var current = document
        for depth in pointer.tokens.indices {
            let token = pointer.tokens[depth]
            switch current {
            case .object(let object):
                guard let member = object[token] else { throw JSONPatchError(reason: .notFound(pointer)) }
                current = member
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
                    throw JSONPatchError(reason: .invalidIndex(JSONPointer(tokens: Array(pointer.tokens[...depth])), count: elements.count))
                }
                current = elements[index]
            default:
                throw JSONPatchError(reason: .notAContainer(JSONPointer(tokens: Array(pointer.tokens[..<depth]))))
            }
        }
        return current
    }

    /// What to do to the container that holds the pointer's last token.
    private enum Edit {
        case add(JSONValue)
        case replace(JSONValue)
        case remove
    }

    private static func add(_ value: JSONValue, at pointer: JSONPointer, in document: inout JSONValue) throws(JSONPatchError) {
        guard !pointer.tokens.isEmpty else {
            document = value
            return
        }
        _ = try edit(&document, pointer: pointer, depth: 0, .add(value))
    }

    private static func replace(at pointer: JSONPointer, with value: JSONValue, in document: inout JSONValue) throws(JSONPatchError) {
        guard !pointer.tokens.isEmpty else {
            document = value
            return
        }
        _ = try edit(&document, pointer: pointer, depth: 0, .replace(value))
    }

    private static func remove(at pointer: JSONPointer, in document: inout JSONValue) throws(JSONPatchError) -> JSONValue {
        guard !pointer.tokens.isEmpty else {
            // RFC 6902 leaves removing the root open; vmd's values always exist, so refuse it.
            throw JSONPatchError(reason: .malformedOperation("cannot remove the whole document"))
        }
        return try edit(&document, pointer: pointer, depth: 0, .remove)
    }

    /// Walks to the container of the pointer's last token and edits it in place; returns
    /// the removed value for `.remove` (`.null` otherwise). The container is moved out of
    /// `node` while it is edited so that the arrays are not copied on write.
    private static func edit(_ node: inout JSONValue, pointer: JSONPointer, depth: Int, _ edit: Edit) throws(JSONPatchError) -> JSONValue {
        let token = pointer.tokens[depth]
        let last = depth == pointer.tokens.count - 1
        switch node {
        case .object(var object):
            node = .null
            defer { node = .object(object) }
            if last {
                switch edit {
                case .add(let value):
                    object[token] = value
                    return .null
                case .replace(let value):
                    guard let position = object.position(of: token) else { throw JSONPatchError(reason: .notFound(pointer)) }
                    object.storage[position].value = value
                    return .null
                case .remove:
                    guard let removed = object.removeValue(forKey: token) else { throw JSONPatchError(reason: .notFound(pointer)) }
                    return removed
                }
            }
            guard let position = object.position(of: token) else {
                throw JSONPatchError(reason: .notFound(JSONPointer(tokens: Array(pointer.tokens[...depth]))))
            }
            return try JSONPatch.edit(&object.storage[position].value, pointer: pointer, depth: depth + 1, edit)
        case .array(var elements):
            node = .null
            defer { node = .array(elements) }
            let here = JSONPointer(tokens: Array(pointer.tokens[...depth]))
            if last, case .add(let value) = edit {
                if token == "-" {
                    elements.append(value)
                    return .null
                }
                guard let index = JSONPointer.arrayIndex(token), index <= elements.count else {
                    throw JSONPatchError(reason: .invalidIndex(here, count: elements.count))
                }
                elements.insert(value, at: index)
                return .null
            }
            guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
                throw JSONPatchError(reason: .invalidIndex(here, count: elements.count))
            }
            if last {
                switch edit {
                case .add: return .null
                case .replace(let value):
                    elements[index] = value
                    return .null
                case .remove:
                    return elements.remove(at: index)
                }
            }
            return try JSONPatch.edit(&elements[index], pointer: pointer, depth: depth + 1, edit)
        default:
            throw JSONPatchError(reason: .notAContainer(JSONPointer(tokens: Array(pointer.tokens[..<depth]))))
        }
    }
}
