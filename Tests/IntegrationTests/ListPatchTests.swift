import JSONCore
import Testing
import VMTestSupport

/// A `State<IdentifiedList<…>>` (the catalog's TodoList) over the real socket with the real
/// vmd: its edits reach a patch subscriber as their own operations, and a whole-value
/// subscriber and `vm.get` see the same list (issue 27).
@Suite("An identified list over the socket: patches from its edits, whole values beside them")
struct ListPatchTests {
    typealias Running = SessionResumeTests.Running

    @Test("a patch subscriber gets each edit's operations and a value subscriber the list, and both agree with vm.get")
    func editsAsPatches() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let sender = try vmd.session()
        defer { sender.close() }
        let seeds: [JSONValue] = (1...20).map { ["title": .string("item \($0)")] }
        let created = try await sender.result("vm.create", ["type": "TodoList", "args": ["items": .array(seeds)]])
        let instance = try #require(created["instance"]?.stringValue)

        let patching = try vmd.session()
        defer { patching.close() }
        let whole = try vmd.session()
        defer { whole.close() }
        try await patching.result("vm.subscribe", ["instance": .string(instance), "outputs": ["items"], "patches": true])
        try await whole.result("vm.subscribe", ["instance": .string(instance), "outputs": ["items"]])
        var patched = try #require(try await patching.nextNotification("vm.output")["params"]?["value"])
        _ = try await whole.nextNotification("vm.output")

        let changes: [(input: String, value: JSONValue, patch: JSONValue)] = [
            ("toggle", 5, [["op": "replace", "path": "/4/done", "value": true]]),
            ("add", "item 21", [["op": "add", "path": "/20", "value": ["id": 21, "title": "item 21", "done": false]]]),
            ("rename", ["id": 21, "title": "renamed"], [["op": "replace", "path": "/20/title", "value": "renamed"]]),
            ("remove", 1, [["op": "remove", "path": "/0"]]),
        ]
        for change in changes {
            try await sender.result("vm.send", ["instance": .string(instance), "input": .string(change.input), "value": change.value])
            let expected = try #require(try await sender.result("vm.get", ["instance": .string(instance), "output": "items"])["value"])
            let patchParams = try #require(try await patching.nextNotification("vm.output")["params"])
            #expect(patchParams["patch"] == change.patch, "\(change.input)")
            patched = try JSONPatch(json: try #require(patchParams["patch"])).applied(to: patched)
            #expect(patched == expected)
            #expect(try await whole.nextNotification("vm.output")["params"]?["value"] == expected)
        }
        // clearDone removes the one done item (id 5, now at /3).
        try await sender.result("vm.send", ["instance": .string(instance), "input": "clearDone"])
        let cleared = try #require(try await patching.nextNotification("vm.output")["params"])
        #expect(cleared["patch"] == [["op": "remove", "path": "/3"]])
        let remaining = try await sender.result("vm.get", ["instance": .string(instance), "output": "remaining"])
        #expect(remaining["value"] == 19)
    }
}
