import JSONCore
import Testing
import VMTestSupport

/// Patches across `session.resume` (PROTOCOL.md §18, "Patches across a resume"; issue 31,
/// item 2), over the real socket with the real vmd.
@Suite("Patches across a resume")
struct PatchResumeTests {
    typealias Running = SessionResumeTests.Running

    @Test("after a resume with received, vm.overflow and a whole value come before any patch, and the patches rebuild vm.get's value")
    func noPatchAgainstAValueTheClientNeverHad() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await SessionResumeTests.open(owner)
        let seeds: [JSONValue] = (1...50).map { ["title": .string("item \($0) with a title long enough to make patches pay")] }
        let created = try await owner.result("vm.create", ["type": "TodoList", "scope": "connection", "args": ["items": .array(seeds)]])
        let instance = try #require(created["instance"]?.stringValue)
        let subscribed = try await owner.result(
            "vm.subscribe", ["instance": .string(instance), "outputs": ["items"], "patches": true])
        let subscription = try #require(subscribed["subscription"]?.stringValue)
        let sender = try vmd.session()
        defer { sender.close() }

        // Seqs 2...6 are read by the owner; 7...206 are handed to its connection, unread.
        for id in 1...5 { try await Self.rename(id, "renamed \(id)", on: instance, via: sender) }
        try await owner.nextMessage(timeout: SessionResumeTests.readTimeout) { $0["params"]?["seq"] == 6 }
        let renames = (0..<200).map { index in
            #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":""# + instance
                + #"","input":"rename","value":{"id":\#(index % 50 + 1),"title":"title \#(index)"}}}"#
        }
        try await sender.send(renames.joined(separator: "\n"))
        _ = try await sender.result("vm.get", ["instance": .string(instance), "output": "items"])
        owner.close()
        try vmd.waitForLog("session \(name) detached from")
        // Three toggles while detached: seqs 207...209, queued for the resume.
        for id in 1...3 {
            try await sender.result("vm.send", ["instance": .string(instance), "input": "toggle", "value": .integer(Int64(id))])
        }
        let expected = try #require(try await sender.result("vm.get", ["instance": .string(instance), "output": "items"])["value"])

        let resumed = try vmd.session()
        defer { resumed.close() }
        let params: JSONValue = ["token": .string(token), "received": .object(JSONObject([(subscription, .integer(6))]))]
        #expect(try await resumed.result("session.resume", params)["subscriptions"] == [.string(subscription)])
        let messages = try await resumed.takeThrough(timeout: SessionResumeTests.readTimeout) { $0["params"]?["replay"] == true }
            .filter { $0["params"]?["subscription"]?.stringValue == subscription }

        // A client that applies a patch only on top of the value it holds, right after it.
        let first = try #require(messages.first)
        #expect(first["method"] == "vm.overflow" && first["params"]?["lost"] == ["from": 7, "to": 206])
        var value: JSONValue?
        var lastSeq: Int64 = 6
        for message in messages where message["method"] == "vm.output" {
            let params = try #require(message["params"])
            let seq = try #require(params["seq"]?.int64Value)
            if let patch = params["patch"] {
                #expect(value != nil && seq == lastSeq + 1, "seq \(seq): a patch against a value this client never received")
                if let base = value { value = try JSONPatch(json: patch).applied(to: base) }
            } else {
                value = params["value"]
            }
            lastSeq = seq
        }
        #expect(lastSeq == 210)
        #expect(value == expected)
    }

    static func rename(_ id: Int, _ title: String, on instance: String, via connection: RPCSession) async throws {
        try await connection.result(
            "vm.send", ["instance": .string(instance), "input": "rename", "value": ["id": .integer(Int64(id)), "title": .string(title)]])
    }
}
