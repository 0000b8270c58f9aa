/// An ordered JSON object: members keep their insertion order, keys are unique.
///
/// Small objects (the common case on the wire) are a single array searched linearly,
/// which beats hashing for a handful of short keys and costs one allocation. Once an
/// object grows past ``indexThreshold`` members a key → position index is kept beside it.
///
/// Setting an existing key replaces its value in place (its position is kept); setting
/// `nil` removes the member. Equality ignores member order, as JSON's data model does.
public struct JSONObject: Sendable {
    /// One member. A struct rather than a tuple: arrays of tuples are copied and destroyed
    /// through generic runtime witnesses, which showed up in every parse in callgrind.
    struct Member: Sendable {
        var key: String
        var value: JSONValue
    }

    /// Members in insertion order.
    var storage: [Member]
    private var index: [String: Int]?

    /// Members in insertion order, as `(key, value)` pairs.
    public var members: [(key: String, value: JSONValue)] { storage.map { ($0.key, $0.value) } }

    /// Member count past which lookups go through a hash index.
    public static let indexThreshold = 16

    /// An empty object.
    public init() {
        storage = []
    }

    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// An object over members whose keys are known to be unique (the parser checked).
    init(uniqueMembers: [Member]) {
        storage = uniqueMembers
        if storage.count > JSONObject.indexThreshold { rebuildIndex() }
    }

    /// An object holding `pairs` in order; a repeated key keeps its first position and last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        storage = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Number of members.
    public var count: Int { storage.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { storage.isEmpty }
    /// Keys in insertion order.
    public var keys: [String] { storage.map(\.key) }
    /// Values in insertion order.
    public var values: [JSONValue] { storage.map(\.value) }

    /// Position of `key` among the members, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in storage.indices where storage[position].key == key { return position }
        return nil
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// The value of member `key`; assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return storage[position].value
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    storage[position].value = newValue
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
        storage.append(Member(key: key, value: value))
        if index != nil {
            index?[key] = storage.count - 1
        } else if storage.count > JSONObject.indexThreshold {
            rebuildIndex()
        }
    }

    /// Removes member `key` and returns its value, keeping the order of the others.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let removed = storage.remove(at: position).value
        if index != nil { rebuildIndex() }
        return removed
    }

    private mutating func rebuildIndex() {
        guard storage.count > JSONObject.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: storage.count)
        for (position, member) in storage.enumerated() { built[member.key] = position }
        index = built
    }
}

extension JSONObject: Sequence {
    /// Iterates `(key, value)` pairs in insertion order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Member]>

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard let member = base.next() else { return nil }
            return (member.key, member.value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }

    public var underestimatedCount: Int { storage.count }
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
        for position in lhs.storage.indices {
            let left = lhs.storage[position], right = rhs.storage[position]
            if left.key != right.key { sameOrder = false; break }
            if left.value != right.value { return false }
        }
        if sameOrder { return true }
        for member in lhs.storage {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes with a commutative operation.
        var combined = 0
        for member in storage {
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
