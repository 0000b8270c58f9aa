/// One value under construction while encoding: containers hand out nodes for members and
/// elements that are still to be written (nested containers, super encoders, generic
/// values), so an encoder can fill a node in later. Finished scalars go straight into the
/// object or array; ``materialized()`` puts the nodes' values in their places at the end.
///
/// Everything a node holds is one stored struct, changed in place by one access per call
/// (each access to a class's stored property is checked for exclusivity at run time).
final class EncodingNode {
    private var content = Content()

    /// Makes this node the finished `value` (whatever it held before is dropped).
    func setValue(_ value: JSONValue) { content.setValue(value) }

    /// Makes this node an object (if it is not one already), for a keyed container.
    func becomeObject() { content.becomeObject() }

    /// Makes this node an array (if it is not one already), for an unkeyed container.
    func becomeArray() { content.becomeArray() }

    /// Sets member `key` to a finished value (replacing whatever it held).
    func set(_ key: String, _ value: JSONValue) { content.set(key, value) }

    /// The node of member `key`, to be written later (the same node if asked again).
    func member(_ key: String) -> EncodingNode { content.member(key) }

    /// Appends a finished element.
    func append(_ value: JSONValue) { content.append(value) }

    /// Appends an element to be written later and returns its node.
    func appendElement() -> EncodingNode { content.appendElement() }

    /// Number of elements so far (unkeyed containers report it as their `count`).
    var elementCount: Int { content.kind == .array ? content.elements.count : 0 }

    /// The finished value. A node nobody wrote (an `encode(to:)` that requested nothing) is
    /// an empty object.
    func materialized() -> JSONValue { content.materialized() }

    /// What a node holds: its kind and the value, object or array it has become.
    private struct Content {
        enum Kind {
            case empty
            case value
            case object
            case array
        }

        var kind: Kind = .empty
        /// The finished value, when `kind` is `.value`.
        var value: JSONValue = .null
        /// Members in order, when `kind` is `.object`; a member still being written is a
        /// `null` placeholder whose node is in `pending`, by position.
        var object = JSONObject()
        /// Elements in order, when `kind` is `.array`, with placeholders as for objects.
        var elements: [JSONValue] = []
        var pending: [Int: EncodingNode] = [:]

        /// Room for this many members when a node becomes an object: a struct's members
        /// then usually fit the first allocation instead of growing it append by append.
        static let expectedMembers = 4

        mutating func setValue(_ value: JSONValue) {
            if kind != .value { dropContainers() }
            kind = .value
            self.value = value
        }

        mutating func becomeObject() {
            if kind == .object { return }
            dropContainers()
            value = .null
            kind = .object
            object = JSONObject(minimumCapacity: Self.expectedMembers)
        }

        mutating func becomeArray() {
            if kind == .array { return }
            dropContainers()
            value = .null
            kind = .array
        }

        private mutating func dropContainers() {
            if kind == .object { object = JSONObject() }
            if kind == .array { elements = [] }
            if !pending.isEmpty { pending = [:] }
        }

        mutating func set(_ key: String, _ value: JSONValue) {
            becomeObject()
            // One search: a new member (the usual case) is appended, a repeated one replaced.
            if let position = object.position(of: key) {
                object.storage[position].value = value
                pending[position] = nil
            } else {
                object.append(uniqueKey: key, value)
            }
        }

        mutating func member(_ key: String) -> EncodingNode {
            becomeObject()
            let position: Int
            if let existing = object.position(of: key) {
                if let node = pending[existing] { return node }
                object.storage[existing].value = .null
                position = existing
            } else {
                position = object.count
                object.append(uniqueKey: key, .null)
            }
            let node = EncodingNode()
            pending[position] = node
            return node
        }

        mutating func append(_ value: JSONValue) {
            becomeArray()
            elements.append(value)
        }

        mutating func appendElement() -> EncodingNode {
            becomeArray()
            let node = EncodingNode()
            pending[elements.count] = node
            elements.append(.null)
            return node
        }

        func materialized() -> JSONValue {
            switch kind {
            case .empty:
                return .object(JSONObject())
            case .value:
                return value
            case .object:
                guard !pending.isEmpty else { return .object(object) }
                var filled = object
                for (position, node) in pending { filled.storage[position].value = node.materialized() }
                return .object(filled)
            case .array:
                guard !pending.isEmpty else { return .array(elements) }
                var filled = elements
                for (position, node) in pending { filled[position] = node.materialized() }
                return .array(filled)
            }
        }
    }
}
