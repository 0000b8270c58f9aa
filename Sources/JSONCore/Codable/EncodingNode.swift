/// One value under construction while encoding: containers hand out nodes for their members
/// and elements before those are written, so an encoder can fill a node in later (nested
/// containers, super encoders). ``materialized()`` turns the finished tree into a ``JSONValue``.
final class EncodingNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object(keys: [String], members: [String: EncodingNode])
        case array([EncodingNode])
    }

    var content: Content = .empty

    /// The member node for `key`, created (at the end) if the object has none yet. Turns an
    /// empty node into an object; a node that held something else is replaced by an object.
    func member(_ key: String) -> EncodingNode {
        var keys: [String] = []
        var members: [String: EncodingNode] = [:]
        if case .object(let existingKeys, let existingMembers) = content {
            keys = existingKeys
            members = existingMembers
        }
        if let existing = members[key] { return existing }
        let node = EncodingNode()
        keys.append(key)
        members[key] = node
        content = .object(keys: keys, members: members)
        return node
    }

    /// Sets member `key` to a finished value.
    func set(_ key: String, _ value: JSONValue) {
        member(key).content = .value(value)
    }

    /// Makes this node an object (if it is not one already), for a keyed container.
    func becomeObject() {
        if case .object = content { return }
        content = .object(keys: [], members: [:])
    }

    /// Makes this node an array (if it is not one already), for an unkeyed container.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Appends a new element node and returns it.
    func appendElement() -> EncodingNode {
        let node = EncodingNode()
        if case .array(var elements) = content {
            content = .empty  // drop the reference so the append does not copy the array
            elements.append(node)
            content = .array(elements)
        } else {
            content = .array([node])
        }
        return node
    }

    /// Number of elements so far (unkeyed containers report it as their `count`).
    var elementCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    /// The finished value. A node nobody wrote (an encoder that requested nothing) is an
    /// empty object, as an `encode(to:)` that encodes nothing means "no members".
    func materialized() -> JSONValue {
        switch content {
        case .empty:
            return .object(JSONObject())
        case .value(let value):
            return value
        case .object(let keys, let members):
            var object = JSONObject(minimumCapacity: keys.count)
            for key in keys {
                if let member = members[key] { object.append(uniqueKey: key, member.materialized()) }
            }
            return .object(object)
        case .array(let elements):
            return .array(elements.map { $0.materialized() })
        }
    }
}
