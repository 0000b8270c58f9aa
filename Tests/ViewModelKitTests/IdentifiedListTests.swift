import JSONCore
import ReactiveCore
import Testing

@testable import ViewModelKit

/// A list element written by hand (`JSONConvertible`).
private struct Row: JSONConvertible, Identifiable, Equatable, Sendable {
    var id: Int
    var name: String
    var starred = false

    init(id: Int, name: String, starred: Bool = false) {
        self.id = id
        self.name = name
        self.starred = starred
    }

    init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        id = try members.decode("id")
        name = try members.decode("name")
        starred = try members.decode("starred", default: false)
    }

    var jsonValue: JSONValue { ["id": .integer(Int64(id)), "name": .string(name), "starred": .bool(starred)] }

    static var jsonSchema: JSONValue { ["type": "object"] }
}

/// The same element as an app writes it: `Codable` by synthesis.
private struct CodableRow: Codable, Identifiable, Equatable, Sendable {
    var id: String
    var name: String
    var tags: [String] = []
}

/// A state's JSON side as the daemon's channel sees it: patches where the state says them,
/// whole values otherwise.
private final class Watch {
    var patches: [JSONPatch] = []
    /// The lower bounds of the value's encoded length that came with the patches.
    var bounds: [Int] = []
    var values: [JSONValue] = []
    var disposable: (any Disposable)?

    init<Element>(_ state: State<IdentifiedList<Element>>) {
        disposable = state.observeJSON({ [unowned self] in values.append($0) }, patches: { [unowned self] patch, atLeast in
            patches.append(patch)
            bounds.append(atLeast)
        })
    }
}

@Suite("IdentifiedList: an identified list whose edits become RFC 6902 patches")
struct IdentifiedListTests {
    @Test("finds elements by id, refuses a second element with an id, and renumbers after a removal or a move")
    func lookupsAndPositions() {
        var list: IdentifiedList<Row> = [Row(id: 1, name: "a"), Row(id: 2, name: "b"), Row(id: 3, name: "c")]
        let appended = list.append(Row(id: 2, name: "again"))
        #expect(!appended)
        #expect(list.count == 3)
        #expect(list[id: 2]?.name == "b")
        let removed = list.remove(id: 1)
        #expect(removed?.name == "a")
        #expect(list.index(id: 3) == 1)
        let moved = list.move(id: 3, to: 0)
        #expect(moved)
        #expect(list.ids == [3, 2])
        #expect(list.index(id: 2) == 1)
        let renumbered = list.update(id: 2) { $0.id = 7 }
        #expect(renumbered)
        #expect(list[id: 7]?.name == "b" && !list.contains(id: 2))
        let taken = list.update(id: 7) { $0.id = 3 }
        #expect(!taken, "an id another element has is refused")
        #expect(list.ids == [3, 7])
        let missing = list.remove(id: 42)
        #expect(missing == nil)
    }

    @Test("each edit is sent as its own operation: add, replace of one member, replace of the element, remove, move")
    func eachOperation() throws {
        let state = State<IdentifiedList<Row>>(initial: [Row(id: 1, name: "a"), Row(id: 2, name: "b")])
        let watch = Watch(state)
        state.update { $0.append(Row(id: 3, name: "c")) }
        state.update { $0.insert(Row(id: 0, name: "z"), at: 0) }
        state.update { $0.update(id: 2) { $0.starred = true } }
        state.update { $0.update(id: 2) { $0 = Row(id: 9, name: "B", starred: false) } }
        state.update { _ = $0.remove(id: 1) }
        state.update { $0.move(id: 3, to: 0) }
        #expect(watch.values.isEmpty)
        #expect(watch.patches.map(\.jsonValue) == [
            [["op": "add", "path": "/2", "value": ["id": 3, "name": "c", "starred": false]]],
            [["op": "add", "path": "/0", "value": ["id": 0, "name": "z", "starred": false]]],
            [["op": "replace", "path": "/2/starred", "value": true]],
            [["op": "replace", "path": "/2", "value": ["id": 9, "name": "B", "starred": false]]],
            [["op": "remove", "path": "/1"]],
            [["op": "move", "from": "/2", "path": "/0"]],
        ])
        #expect(state.value.ids == [3, 0, 9])
    }

    @Test("several edits in one update are one patch, in order; an update that edits nothing sends nothing")
    func batches() throws {
        let state = State<IdentifiedList<Row>>(initial: [Row(id: 1, name: "a")])
        let watch = Watch(state)
        var typed: [[Int]] = []
        let subscription = state.subscribe(onNext: { typed.append($0.ids) })
        defer { subscription.dispose() }
        state.update { list in
            list.append(Row(id: 2, name: "b"))
            list.update(id: 1) { $0.name = "A" }
            _ = list.remove(id: 2)
        }
        state.update { _ = $0.remove(id: 99) }
        #expect(watch.patches.map(\.jsonValue) == [
            [
                ["op": "add", "path": "/1", "value": ["id": 2, "name": "b", "starred": false]],
                ["op": "replace", "path": "/0/name", "value": "A"],
                ["op": "remove", "path": "/1"],
            ]
        ])
        #expect(typed == [[1], [1]])
    }

    @Test("a list replaced whole, or one update with more edits than elements, goes as a whole value")
    func wholeValues() throws {
        let state = State<IdentifiedList<Row>>(initial: [Row(id: 1, name: "a")])
        let watch = Watch(state)
        state.update { $0.replaceAll(with: [Row(id: 5, name: "e")]) }
        state.update { list in
            for id in 10..<20 { list.append(Row(id: id, name: "n")) }
            list.removeAll { $0.id >= 10 }
        }
        #expect(watch.patches.isEmpty)
        #expect(watch.values == [[["id": 5, "name": "e", "starred": false]], [["id": 5, "name": "e", "starred": false]]])
    }

    @Test("Codable elements: patches carry their Codable encoding")
    func codableElements() throws {
        let state = State<IdentifiedList<CodableRow>>(initial: [CodableRow(id: "x", name: "first")])
        let watch = Watch(state)
        state.update { $0.update(id: "x") { $0.tags.append("new") } }
        state.update { $0.append(CodableRow(id: "y", name: "second")) }
        let expected: [JSONValue] = [
            [["op": "replace", "path": "/0", "value": ["id": "x", "name": "first", "tags": ["new"]]]],
            [["op": "add", "path": "/1", "value": ["id": "y", "name": "second", "tags": []]]],
        ]
        #expect(watch.patches.map(\.jsonValue) == expected)
        #expect(state.currentJSON == [["id": "x", "name": "first", "tags": ["new"]], ["id": "y", "name": "second", "tags": []]])
    }

    @Test("a whole-value watcher beside a patch watcher gets the value, encoded once per change")
    func wholeBesidePatch() throws {
        let state = State<IdentifiedList<Row>>(initial: [Row(id: 1, name: "a")])
        let patchWatch = Watch(state)
        var values: [JSONValue] = []
        let whole = state.observeJSON({ values.append($0) }, patches: nil)
        defer { whole.dispose() }
        state.update { $0.update(id: 1) { $0.starred = true } }
        #expect(patchWatch.patches.count == 1)
        #expect(values == [[["id": 1, "name": "a", "starred": true]]])
    }

    @Test("applying every patch to the previous value gives the new whole value (whose length the patch's bound never exceeds), for 300 random edit sequences")
    func patchesRebuildTheValue() throws {
        var generator = ListEditGenerator(seed: 27)
        for _ in 0..<300 {
            let start = IdentifiedList((0..<Int.random(in: 0...6, using: &generator)).map { Row(id: $0, name: "r\($0)") })
            let state = State<IdentifiedList<Row>>(initial: start)
            let watch = Watch(state)
            var document = start.jsonValue
            var nextID = 100
            for _ in 0..<8 {
                state.update { list in
                    for _ in 0..<Int.random(in: 1...3, using: &generator) {
                        Self.randomEdit(of: &list, nextID: &nextID, using: &generator)
                    }
                }
                if let patch = watch.patches.popLast() {
                    document = try patch.applied(to: document)
                    let bound = watch.bounds.popLast() ?? .max
                    #expect(bound <= document.encodedString().utf8.count)
                } else if let value = watch.values.popLast() {
                    document = value
                }
                #expect(document == state.value.jsonValue)
                #expect(document == state.currentJSON)
            }
        }
    }

    static fileprivate func randomEdit(of list: inout IdentifiedList<Row>, nextID: inout Int, using generator: inout ListEditGenerator) {
        let someID = list.isEmpty ? nil : list[Int.random(in: 0..<list.count, using: &generator)].id
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            list.insert(Row(id: nextID, name: "n\(nextID)"), at: Int.random(in: 0...list.count, using: &generator))
            nextID += 1
        case 1:
            if let someID { list.update(id: someID) { $0.starred.toggle() } }
        case 2:
            if let someID { list.update(id: someID) { $0.name += "!"; $0.starred.toggle() } }
        case 3:
            if let someID { _ = list.remove(id: someID) }
        case 4:
            if let someID { list.move(id: someID, to: Int.random(in: 0..<list.count, using: &generator)) }
        default:
            list.append(Row(id: nextID, name: "n\(nextID)"))
            nextID += 1
        }
    }
}

/// A deterministic generator (SplitMix64), so a failing sequence is the same on every run.
private struct ListEditGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
