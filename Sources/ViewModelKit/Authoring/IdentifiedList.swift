import JSONCore

/// An ordered list of identified elements, each id at most once, that can tell what changed.
///
/// Read it like an array (it is a `RandomAccessCollection` of its elements) or by id
/// (``subscript(id:)``, ``index(id:)``); change it with ``append(_:)``, ``insert(_:at:)``,
/// ``update(id:_:)``, ``remove(id:)``, ``move(id:to:)`` and ``removeAll(where:)``. Finding an
/// element by id takes constant time; inserting or removing before the end renumbers the
/// elements after it.
///
/// Held by a state output (`State<IdentifiedList<Item>>`), its changes made through
/// ``State/update(_:)`` go to patch subscribers as the RFC 6902 operations that make them
/// (`add`, `replace`, `remove` and `move` at `/index` or `/index/member`), so a change costs
/// the daemon the change, not the list. On the wire it is a JSON array of its elements.
public struct IdentifiedList<Element: Identifiable> {
    /// The elements, in order.
    public private(set) var elements: [Element]
    /// Where each id is in ``elements``.
    private var positions: [Element.ID: Int]
    /// The edits since ``beginRecording()``, in order; `nil` while not recording.
    private var recorded: [ListEdit<Element>]?

    /// An empty list.
    public init() {
        elements = []
        positions = [:]
    }

    /// A list of `elements` in order; a later element whose id an earlier one has is left out.
    public init(_ elements: some Sequence<Element>) {
        self.init()
        for element in elements { append(element) }
    }

    /// A one-element list with no index (only encoded, never searched: see State+IdentifiedList.swift).
    init(encodingOnly element: Element) {
        elements = [element]
        positions = [:]
    }

    /// The element with id `id`, if any.
    public subscript(id id: Element.ID) -> Element? {
        guard let index = positions[id] else { return nil }
        return elements[index]
    }

    /// The position of the element with id `id`, if any.
    public func index(id: Element.ID) -> Int? {
        positions[id]
    }

    /// Whether an element has id `id`.
    public func contains(id: Element.ID) -> Bool {
        positions[id] != nil
    }

    /// The ids, in order.
    public var ids: [Element.ID] { elements.map(\.id) }

    // MARK: Changes

    /// Appends `element`; `false` (and nothing changes) when its id is already in the list.
    @discardableResult public mutating func append(_ element: Element) -> Bool {
        insert(element, at: elements.count)
    }

    /// Inserts `element` at `index` (clamped to `0...count`); `false` (and nothing changes)
    /// when its id is already in the list.
    @discardableResult public mutating func insert(_ element: Element, at index: Int) -> Bool {
        guard positions[element.id] == nil else { return false }
        let index = Swift.min(Swift.max(index, 0), elements.count)
        elements.insert(element, at: index)
        renumber(from: index)
        recorded?.append(.insert(index, element))
        return true
    }

    /// Changes the element with id `id` in place; `false` when no element has that id, or when
    /// `change` gives it the id of another element (then nothing changes).
    @discardableResult public mutating func update(id: Element.ID, _ change: (inout Element) -> Void) -> Bool {
        guard let index = positions[id] else { return false }
        let old = elements[index]
        change(&elements[index])
        let newID = elements[index].id
        if newID != id {
            guard positions[newID] == nil else {
                elements[index] = old
                return false
            }
            positions[id] = nil
            positions[newID] = index
        }
        if recorded != nil { recorded?.append(.update(index, old: old, new: elements[index])) }
        return true
    }

    /// Removes the element with id `id` and returns it (`nil` when no element has that id).
    @discardableResult public mutating func remove(id: Element.ID) -> Element? {
        guard let index = positions[id] else { return nil }
        let element = elements.remove(at: index)
        positions[id] = nil
        renumber(from: index)
        recorded?.append(.remove(index))
        return element
    }

    /// Moves the element with id `id` to position `index` (clamped to the list) of the list
    /// without it; `false` when no element has that id.
    @discardableResult public mutating func move(id: Element.ID, to index: Int) -> Bool {
        guard let from = positions[id] else { return false }
        let to = Swift.min(Swift.max(index, 0), elements.count - 1)
        guard from != to else { return true }
        let element = elements.remove(at: from)
        elements.insert(element, at: to)
        renumber(from: Swift.min(from, to), through: Swift.max(from, to))
        recorded?.append(.move(from: from, to: to))
        return true
    }

    /// Removes every element `shouldRemove` picks, each recorded as its own removal.
    public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
        var index = elements.count - 1
        while index >= 0 {
            if try shouldRemove(elements[index]) { remove(id: elements[index].id) }
            index -= 1
        }
    }

    /// Replaces every element with `elements` (recorded as a new value, not as edits).
    public mutating func replaceAll(with elements: some Sequence<Element>) {
        let wasRecording = recorded != nil
        self = IdentifiedList(elements)
        if wasRecording { recorded = [.reset] }
    }

    /// Gives elements `from...through` (to the end by default) their positions.
    private mutating func renumber(from start: Int, through end: Int? = nil) {
        let last = end ?? elements.count - 1
        guard start <= last else { return }
        for index in start...last { positions[elements[index].id] = index }
    }

    // MARK: Recording (State+IdentifiedList.swift)

    /// From now on every change is recorded.
    mutating func beginRecording() {
        recorded = []
    }

    /// The changes recorded since ``beginRecording()``; recording stops.
    mutating func endRecording() -> [ListEdit<Element>] {
        defer { recorded = nil }
        return recorded ?? []
    }
}

/// One recorded change of an ``IdentifiedList``, with the positions it had when made.
enum ListEdit<Element> {
    case insert(Int, Element)
    case update(Int, old: Element, new: Element)
    case remove(Int)
    case move(from: Int, to: Int)
    /// Every element replaced: no edit describes it.
    case reset
}

extension IdentifiedList: RandomAccessCollection {
    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }
    // The array's own, not the generic defaults (which measure the distance between the
    // indices through the protocol on every read: ~7k instructions per change in `list10k`).
    public var count: Int { elements.count }
    public var isEmpty: Bool { elements.isEmpty }
}

extension IdentifiedList: ExpressibleByArrayLiteral {
    /// A list of the literal's elements; a later element whose id an earlier one has is left out.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension IdentifiedList: Equatable where Element: Equatable {
    /// Equal when they hold equal elements in the same order (what was recorded is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.elements == rhs.elements
    }
}

extension IdentifiedList: Sendable where Element: Sendable, Element.ID: Sendable {}

extension ListEdit: Sendable where Element: Sendable {}

extension IdentifiedList: CustomStringConvertible {
    public var description: String { elements.description }
}

extension IdentifiedList: JSONConvertible where Element: JSONConvertible {
    /// Reads an array of elements; two elements with one id are refused.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let decoded = try [Element](json: json)
        self.init()
        for (offset, element) in decoded.enumerated() where !append(element) {
            throw JSONDecodingError(
                path: JSONPath.root.appending(index: offset), expected: "an element with an id of its own",
                got: "a repeated id", detail: "an earlier element has the same id")
        }
    }

    /// The elements, as a JSON array.
    /// (A closure, not the key path `\.jsonValue`: in generic code the key path is made at
    /// run time on every call, ~7.5k instructions, twice per change of one element.)
    public var jsonValue: JSONValue { .array(elements.map { $0.jsonValue }) }

    /// An array of the element's schema.
    public static var jsonSchema: JSONValue { ["type": "array", "items": Element.jsonSchema] }
}

extension IdentifiedList: Encodable where Element: Encodable {
    /// The elements, as an unkeyed container (a JSON array).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(element) }
    }
}

extension IdentifiedList: Decodable where Element: Decodable {
    /// Reads an array of elements; two elements with one id are refused.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd {
            let element = try container.decode(Element.self)
            guard append(element) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "an earlier element has the same id")
            }
        }
    }
}
