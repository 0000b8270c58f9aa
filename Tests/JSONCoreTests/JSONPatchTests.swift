import JSONCore
import ReactiveTesting
import Testing

@Suite("JSON Patch (RFC 6902)")
struct JSONPatchTests {
    private func patch(_ text: String) throws -> JSONPatch {
        try JSONPatch(json: try JSONValue(parsing: text))
    }

    @Test("escapes and unescapes pointer tokens")
    func pointerEscaping() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/m~0n/~01/")
        #expect(pointer.tokens == ["a/b", "m~n", "~1", ""])
        #expect(pointer.description == "/a~1b/m~0n/~01/")
        #expect(JSONPointer.root.description == "")
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "a/b") }
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "/a~2") }
    }

    @Test("applies every operation the way RFC 6902 describes")
    func appliesOperations() throws {
        let document = try JSONValue(parsing: #"{"foo":["bar","baz"],"q":{"x":1}}"#)
        let result = try patch(#"""
        [{"op":"add","path":"/foo/1","value":"qux"},
         {"op":"remove","path":"/foo/0"},
         {"op":"replace","path":"/q/x","value":2},
         {"op":"add","path":"/foo/-","value":"end"},
         {"op":"copy","from":"/q","path":"/r"},
         {"op":"move","from":"/foo/0","path":"/first"},
         {"op":"test","path":"/r/x","value":2.0},
         {"op":"add","path":"/a~1b","value":null}]
        """#).applied(to: document)
        #expect(result.encodedString() == #"{"foo":["baz","end"],"q":{"x":2},"r":{"x":2},"first":"qux","a/b":null}"#)
    }

    @Test("replaces the whole document through the empty pointer")
    func replacesRoot() throws {
        #expect(try patch(#"[{"op":"replace","path":"","value":[1]}]"#).applied(to: ["a": 1]) == [1])
    }

    @Test("names the failing operation and leaves the value unchanged")
    func failsPrecisely() throws {
        var value: JSONValue = ["items": [1, 2]]
        let failing = try patch(#"[{"op":"add","path":"/items/-","value":3},{"op":"remove","path":"/items/7"}]"#)
        do {
            try failing.apply(to: &value)
            Issue.record("the patch applied")
        } catch {
            #expect(error.operationIndex == 1)
            #expect(error.description == "operation 1 (remove /items/7): /items/7 is not an index of the array (it has 3 elements)")
        }
        #expect(value == ["items": [1, 2]])
    }

    @Test("rejects missing members, leading zeros, tests that fail and moves into a child")
    func rejectsInvalidOperations() throws {
        let document = try JSONValue(parsing: #"{"a":{"b":[0,1]}}"#)
        let cases: [(String, JSONPatchError.Reason)] = [
            (#"[{"op":"remove","path":"/x"}]"#, .notFound(try JSONPointer(parsing: "/x"))),
            (#"[{"op":"replace","path":"/a/b/01","value":1}]"#, .invalidIndex(try JSONPointer(parsing: "/a/b/01"), count: 2)),
            (#"[{"op":"test","path":"/a/b/0","value":1}]"#, .testFailed(try JSONPointer(parsing: "/a/b/0"))),
            (#"[{"op":"move","from":"/a","path":"/a/c"}]"#, .moveIntoItself(from: try JSONPointer(parsing: "/a"), path: try JSONPointer(parsing: "/a/c"))),
            (#"[{"op":"add","path":"/a/b/0/z","value":1}]"#, .notAContainer(try JSONPointer(parsing: "/a/b/0"))),
        ]
        for (text, reason) in cases {
            #expect(throws: JSONPatchError(operationIndex: 0, operation: try patch(text).operations[0].description, reason: reason)) {
                try patch(text).applied(to: document)
            }
        }
        #expect(throws: JSONPatchError.self) { try patch(#"[{"op":"frobnicate","path":""}]"#) }
        #expect(throws: JSONPatchError.self) { try patch(#"[{"op":"add","path":"/a"}]"#) }
    }

    @Test("encodes operations with op first and round-trips them")
    func encodesOperations() throws {
        let text = #"[{"op":"move","from":"/items/3","path":"/items/0"},{"op":"replace","path":"/items/0/done","value":true}]"#
        #expect(try patch(text).jsonValue.encodedString() == text)
    }

    @Test("diffs a toggled item of an identified list into one replace of its member")
    func diffsToggleByIdentity() throws {
        let old: JSONValue = .array((0..<100).map { ["id": .integer(Int64($0)), "title": .string("t\($0)"), "done": false] })
        guard case .array(var elements) = old, case .object(var item) = elements[42] else { return }
        item["done"] = true
        elements[42] = .object(item)
        let diff = JSONPatch(from: old, to: .array(elements))
        #expect(diff.jsonValue.encodedString() == #"[{"op":"replace","path":"/42/done","value":true}]"#)
    }

    @Test("diffs an identified list by add, remove and move")
    func diffsByIdentity() throws {
        let old = try JSONValue(parsing: #"[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]"#)
        let new = try JSONValue(parsing: #"[{"id":"c"},{"id":"a"},{"id":"e"},{"id":"d","x":1}]"#)
        let diff = JSONPatch(from: old, to: new)
        #expect(diff.jsonValue.encodedString()
            == #"[{"op":"remove","path":"/1"},{"op":"move","from":"/1","path":"/0"},{"op":"add","path":"/2","value":{"id":"e"}},{"op":"add","path":"/3/x","value":1}]"#)
        #expect(try diff.applied(to: old) == new)
    }

    @Test("diffs other arrays by their common prefix and suffix")
    func diffsByPosition() throws {
        let diff = JSONPatch(from: [1, 2, 3, 4, 5], to: [1, 9, 5])
        #expect(diff.jsonValue.encodedString() == #"[{"op":"replace","path":"/1","value":9},{"op":"remove","path":"/3"},{"op":"remove","path":"/2"}]"#)
        #expect(JSONPatch(from: [1, 5], to: [1, 2, 3, 5]).jsonValue.encodedString()
            == #"[{"op":"add","path":"/1","value":2},{"op":"add","path":"/2","value":3}]"#)
    }

    @Test("gives up once a patch needs more operations than allowed")
    func givesUpPastTheLimit() throws {
        let old: JSONValue = .array((0..<50).map { ["id": .integer(Int64($0)), "done": true] })
        #expect(JSONPatch(from: old, to: [], maximumOperations: 10) == nil)
        #expect(JSONPatch(from: old, to: [], maximumOperations: 50)?.operations.count == 50)
        #expect(JSONPatch(from: [1, 2, 3, 4], to: [9, 8, 7, 6], maximumOperations: 2) == nil)
        #expect(JSONPatch(from: ["a": 1], to: ["a": 2], maximumOperations: 1) == JSONPatch([.replace(path: try JSONPointer(parsing: "/a"), value: 2)]))
        // Every operation encodes to at least the stated minimum.
        #expect(JSONPatch([.remove(path: .root)]).jsonValue.encodedBytes().count + 1 >= JSONPatch.minimumOperationBytes)
    }

    @Test("produces an empty patch for equal values, including 1 and 1.0")
    func emptyForEqual() {
        #expect(JSONPatch(from: ["a": [1, 2]], to: ["a": [1, 2.0]]).isEmpty)
    }

    // MARK: Seeded property tests


    static func randomScalar(_ rng: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int64.random(in: -5...5, using: &rng))
        case 3: return .double(Double(Int.random(in: 0...8, using: &rng)) / 4)
        case 4: return .string(["", "a", "b/c", "m~n", "é"].randomElement(using: &rng) ?? "")
        default: return .string("s\(Int.random(in: 0..<4, using: &rng))")
        }
    }

    static func randomValue(_ rng: inout SeededGenerator, depth: Int) -> JSONValue {
        guard depth > 0 else { return randomScalar(&rng) }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0, 1: return randomScalar(&rng)
        case 2:
            return .array((0..<Int.random(in: 0..<5, using: &rng)).map { _ in randomValue(&rng, depth: depth - 1) })
        case 3:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0..<4, using: &rng) {
                object[["a", "b", "c/d", "~"].randomElement(using: &rng) ?? "a"] = randomValue(&rng, depth: depth - 1)
            }
            return .object(object)
        default:
            return .array((0..<Int.random(in: 0..<6, using: &rng)).map { id in
                ["id": Bool.random(using: &rng) ? .integer(Int64(id)) : .string("k\(id)"), "v": randomValue(&rng, depth: depth - 1)]
            })
        }
    }

    /// One random edit somewhere inside `value`: replace, insert, delete, swap or rename.
    static func edit(_ value: JSONValue, _ rng: inout SeededGenerator, depth: Int) -> JSONValue {
        let descend = depth > 0 && Int.random(in: 0..<3, using: &rng) > 0
        switch value {
        case .array(var elements) where !elements.isEmpty:
            let index = Int.random(in: elements.indices, using: &rng)
            if descend {
                elements[index] = edit(elements[index], &rng, depth: depth - 1)
                return .array(elements)
            }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: elements.remove(at: index)
            case 1: elements.swapAt(index, Int.random(in: elements.indices, using: &rng))
            case 2: elements.insert(randomValue(&rng, depth: 1), at: index)
            default: elements.reverse()
            }
            return .array(elements)
        case .object(var object) where !object.isEmpty:
            let key = object.keys.randomElement(using: &rng) ?? ""
            if descend, let member = object[key] {
                object[key] = edit(member, &rng, depth: depth - 1)
            } else if Bool.random(using: &rng) {
                object[key] = nil
            } else {
                object["n\(Int.random(in: 0..<3, using: &rng))"] = randomScalar(&rng)
            }
            return .object(object)
        default:
            return randomValue(&rng, depth: 2)
        }
    }

    @Test("applying the diff of a random edit sequence gives the edited value", arguments: [1, 2, 3, 4] as [UInt64])
    func diffRoundTrips(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            var current = JSONValue.object(["items": JSONPatchTests.randomValue(&rng, depth: 3), "n": 1])
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let next = JSONPatchTests.edit(current, &rng, depth: 4)
                let diff = JSONPatch(from: current, to: next)
                let applied = try diff.applied(to: current)
                #expect(applied == next, "seed \(seed): \(current) -> \(next) via \(diff)")
                // Round trip through the wire form too.
                #expect(try JSONPatch(json: JSONValue(parsing: diff.jsonValue.encodedString())).applied(to: current) == next)
                current = next
            }
        }
    }

    @Test("keeps the patch of one change small against a long identified list", arguments: [7, 8] as [UInt64])
    func patchSizeOfSmallEdits(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var items: [JSONValue] = (0..<1_000).map { ["id": .integer(Int64($0)), "title": .string("item \($0)"), "done": false] }
        for step in 0..<200 {
            let old = JSONValue.array(items)
            let index = Int.random(in: items.indices, using: &rng)
            switch step % 4 {
            case 0: items[index] = ["id": items[index]["id"] ?? 0, "title": items[index]["title"] ?? "", "done": true]
            case 1: items.remove(at: index)
            case 2: items.insert(["id": .integer(Int64(10_000 + step)), "title": "new", "done": false], at: index)
            default: items.swapAt(index, Int.random(in: items.indices, using: &rng))
            }
            let new = JSONValue.array(items)
            let diff = JSONPatch(from: old, to: new)
            #expect(try diff.applied(to: old) == new)
            let patchSize = diff.jsonValue.encodedBytes().count
            #expect(patchSize * 100 <= new.encodedBytes().count, "step \(step): \(patchSize) bytes: \(diff)")
        }
    }
}
