/// An ordered JSON object: members keep their insertion order, keys are unique.
///
/// Small objects (the common case on the wire) are a single array searched linearly,
/// which beats hashing for a handful of short keys and costs one allocation. Once an
/// object grows past ``indexThreshold`` members a key → position index is kept beside it.
///
/// Setting an existing key replaces its value in place (its position is kept); setting
/// `nil` removes the member. Equality ignores member order, as JSON's data model does.
public struct JSONObject: Sendable {
    /// Members in insertion order.
    public private(set) var members: [(key: String, value: JSONValue)]
    private var index: [String: Int]?

    /// Member count past which lookups go through a hash index.
    public static let indexThreshold = 16

    /// An empty object.
    public init() {
        members = []
    }

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        members = []
        members.reserveCapacity(capacity)
    }

    /// An object holding `pairs` in order; a repeated key keeps its first position and last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        members = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Number of members.
    public var count: Int { members.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }
    /// Keys in insertion order.
    public var keys: [String] { members.map(\.key) }
    /// Values in insertion order.
    public var values: [JSONValue] { members.map(\.value) }

    /// Position of `key` among the members, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in members.indices where members[position].key == key { return position }
        return nil
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// The value of member `key`; assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    members[position].value = newValue
                } else {
                    append(uniqueKey: key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Appends a member whose key the caller knows is not present yet (the parser checks).
    /// Appending a duplicate key breaks the object's invariant; use the subscript when unsure.
    public mutating func append(uniqueKey key: String, _ value: JSONValue) {
        members.append((key, value))
        if index != nil {
            index?[key] = members.count - 1
        } else if members.count > JSONObject.indexThreshold {
            rebuildIndex()
        }
    }

    /// Removes member `key` and returns its value, keeping the order of the others.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let removed = members.remove(at: position).value
        if index != nil { rebuildIndex() }
        return removed
    }

    private mutating func rebuildIndex() {
        guard members.count > JSONObject.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
    }

    public var underestimatedCount: Int { members.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Fast path: same order (what a round trip produces).
        var sameOrder = true
        for position in lhs.members.indices {
            let left = lhs.members[position], right = rhs.members[position]
            if left.key != right.key { sameOrder = false; break }
            if left.value != right.value { return false }
        }
        if sameOrder { return true }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes with a commutative operation.
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of this object.
    public var description: String { JSONValue.object(self).encodedString() }
}
