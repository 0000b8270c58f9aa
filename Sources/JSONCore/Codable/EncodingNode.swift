/// One value under construction while encoding: containers hand out nodes for members and
/// elements that are still to be written (nested containers, super encoders, generic
/// values), so an encoder can fill a node in later. Finished scalars go straight into the
/// object or array; ``materialized()`` puts the nodes' values in their places at the end.
final class EncodingNode {
    enum Content {
        case empty
        case value(JSONValue)
        /// Members in order; a member still being written is a `null` placeholder whose node
        /// is in `pending`, by position.
        case object(JSONObject, pending: [Int: EncodingNode])
        /// Elements in order, with placeholders as for objects.
        case array([JSONValue], pending: [Int: EncodingNode])
    }

    var content: Content = .empty

    /// Makes this node an object (if it is not one already), for a keyed container.
    func becomeObject() {
        if case .object = content { return }
        content = .object(JSONObject(), pending: [:])
    }

    /// Makes this node an array (if it is not one already), for an unkeyed container.
    func becomeArray() {
        if case .array = content { return }
        content = .array([], pending: [:])
    }

    /// Takes the object out of `content` (so mutating it does not copy), creating an empty one.
    private func takeObject() -> (JSONObject, [Int: EncodingNode]) {
        guard case .object(let object, let pending) = content else { return (JSONObject(), [:]) }
        content = .empty
        return (object, pending)
    }

    private func takeArray() -> ([JSONValue], [Int: EncodingNode]) {
        guard case .array(let elements, let pending) = content else { return ([], [:]) }
        content = .empty
        return (elements, pending)
    }

    /// Sets member `key` to a finished value (replacing whatever it held).
    func set(_ key: String, _ value: JSONValue) {
        var (object, pending) = takeObject()
        // One search: a new member (the usual case) is appended, a repeated one replaced.
        if let position = object.position(of: key) {
            object[key] = value
            pending[position] = nil
        } else {
            object.append(uniqueKey: key, value)
        }
        content = .object(object, pending: pending)
    }

    /// The node of member `key`, to be written later (the same node if asked again).
    func member(_ key: String) -> EncodingNode {
        var (object, pending) = takeObject()
        defer { content = .object(object, pending: pending) }
        if let position = object.position(of: key), let node = pending[position] { return node }
        object[key] = .null
        let node = EncodingNode()
        if let position = object.position(of: key) { pending[position] = node }
        return node
    }

    /// Appends a finished element.
    func append(_ value: JSONValue) {
        var (elements, pending) = takeArray()
        elements.append(value)
        content = .array(elements, pending: pending)
    }

    /// Appends an element to be written later and returns its node.
    func appendElement() -> EncodingNode {
        var (elements, pending) = takeArray()
        let node = EncodingNode()
        pending[elements.count] = node
        elements.append(.null)
        content = .array(elements, pending: pending)
        return node
    }

    /// Number of elements so far (unkeyed containers report it as their `count`).
    var elementCount: Int {
        if case .array(let elements, _) = content { return elements.count }
        return 0
    }

    /// The finished value. A node nobody wrote (an `encode(to:)` that requested nothing) is
    /// an empty object.
    func materialized() -> JSONValue {
        switch content {
        case .empty:
            return .object(JSONObject())
        case .value(let value):
            return value
        case .object(var object, let pending):
            guard !pending.isEmpty else { return .object(object) }
            var members = object.members
            for (position, node) in pending { members[position].value = node.materialized() }
            object = JSONObject(minimumCapacity: members.count)
            for member in members { object.append(uniqueKey: member.key, member.value) }
            return .object(object)
        case .array(var elements, let pending):
            for (position, node) in pending { elements[position] = node.materialized() }
            return .array(elements)
        }
    }
}
