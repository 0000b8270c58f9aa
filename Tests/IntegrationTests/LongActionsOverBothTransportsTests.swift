import JSONCore
import Testing
import VMTestSupport

/// Long actions over each transport (the in-memory server and the real `vmd` on its socket;
/// PROTOCOL.md §8, O12): `vm.progress` before the reply and never after, none unless asked,
/// cancellation, the `latest` strategy.
@Suite("Long actions over both transports: progress, cancel, latest")
struct LongActionsOverBothTransportsTests {
    /// A SendList with a recipient and a message, ready to `send`, uploading for `uploadMs`.
    private func readySendList(_ session: RPCSession, id: String, uploadMs: Int) async throws {
        try await session.result("vm.create", ["type": "SendList", "id": .string(id), "args": ["uploadMs": .integer(Int64(uploadMs))]])
        try await session.send(id, "addRecipient", "ada@example.com")
        try await session.send(id, "message", "Hello")
    }

    /// Reads every message up to and including the reply to `id`.
    private func messages(until id: JSONValue, on session: RPCSession) async throws -> [JSONValue] {
        var read: [JSONValue] = []
        while true {
            let message = try await session.nextMessage()
            read.append(message)
            if message["id"] == id, message["method"] == nil { return read }
        }
    }

    /// A round trip after which nothing the daemon wrote earlier can still be on its way.
    private func nothingElseArrives(on session: RPCSession) async throws {
        let ping = try await session.request("daemon.info")
        let next = try await session.nextMessage()
        #expect(next["id"] == ping, "unexpected message: \(next.encodedString())")
    }

    @Test("with progress: true, every vm.progress comes before the reply, completed never decreasing, none after", arguments: RPCTransport.allCases)
    func progressComesBeforeTheReply(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await readySendList(session, id: "s", uploadMs: 200)
        try await session.send(#"{"jsonrpc":"2.0","id":"up","method":"vm.execute","params":{"instance":"s","action":"send","progress":true}}"#)
        let read = try await messages(until: "up", on: session)
        let progress = read.dropLast()
        #expect(progress.allSatisfy { $0["method"]?.stringValue == "vm.progress" })
        #expect(progress.allSatisfy { $0["params"]?["request"] == "up" && $0["params"]?["instance"] == "s" && $0["params"]?["action"] == "send" })
        let completed = progress.compactMap { $0["params"]?["completed"]?.intValue }
        #expect(completed == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        #expect(progress.allSatisfy { $0["params"]?["total"]?.intValue == 100 })
        #expect(progress.last?["params"]?["message"]?.stringValue == "uploaded")
        #expect((read.last?["result"]?["value"]?["uploadId"]?.intValue ?? 0) >= 1)
        try await nothingElseArrives(on: session)
    }

    @Test("without progress, the same execution writes no vm.progress", arguments: RPCTransport.allCases)
    func noProgressUnlessAsked(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await readySendList(session, id: "s", uploadMs: 100)
        let id = try await session.request("vm.execute", ["instance": "s", "action": "send"])
        let read = try await messages(until: id, on: session)
        #expect(read.count == 1)
        #expect(read.first?["result"] != nil)
        try await nothingElseArrives(on: session)
    }

    @Test("$/cancelRequest ends the progress with the one requestCancelled reply, nothing after", arguments: RPCTransport.allCases)
    func cancelEndsProgressWithOneReply(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await readySendList(session, id: "s", uploadMs: 60_000)
        try await session.send(#"{"jsonrpc":"2.0","id":7,"method":"vm.execute","params":{"instance":"s","action":"send","progress":true}}"#)
        let first = try await session.nextMessage()
        #expect(first["method"]?.stringValue == "vm.progress")
        #expect(first["params"]?["completed"]?.intValue == 0)
        try await session.notify("$/cancelRequest", ["id": 7])
        let read = try await messages(until: 7, on: session)
        #expect(read.count == 1, "only the reply, got \(read.map { $0.encodedString() })")
        let reply = try #require(read.last)
        #expect(reply.errorCodeAndName == (-32800, "requestCancelled"))
        try await nothingElseArrives(on: session)
        #expect(try await session.get("s", "isSending") == false)
    }

    @Test("resetTimeoutOnProgress keeps a reporting execution alive past timeoutMs; without it, it times out", arguments: RPCTransport.allCases)
    func progressResetsTheTimeout(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        // 10 steps of 300 ms each: every step comes well within a 1500 ms timeout (1.2 s of
        // slack for a loaded machine), while the whole upload takes twice the timeout.
        try await readySendList(session, id: "kept", uploadMs: 3000)
        let kept = try await session.call("vm.execute", ["instance": "kept", "action": "send", "timeoutMs": 1500, "resetTimeoutOnProgress": true])
        #expect(kept["result"]?["value"]?["uploadId"] != nil, "\(kept.encodedString())")
        try await readySendList(session, id: "cut", uploadMs: 3000)
        let cut = try await session.call("vm.execute", ["instance": "cut", "action": "send", "timeoutMs": 1500])
        #expect(cut.errorCodeAndName == (-31009, "actionTimedOut"))
    }

    @Test("latest: the first of two quick searches is answered actionSuperseded, the second with its results, one reply each", arguments: RPCTransport.allCases)
    func latestSupersedesTheFirstSearch(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await session.result("vm.create", ["type": "Search", "id": "q", "args": ["latencyMs": 300]])
        try await session.send(#"{"jsonrpc":"2.0","id":1,"method":"vm.execute","params":{"instance":"q","action":"search","value":"berry"}}"#)
        try await session.send(#"{"jsonrpc":"2.0","id":2,"method":"vm.execute","params":{"instance":"q","action":"search","value":"lemon"}}"#)
        let first = try await session.nextMessage()
        #expect(first["id"] == 1)
        #expect(first.errorCodeAndName == (-31017, "actionSuperseded"))
        #expect(first["error"]?["data"]?["action"] == "search")
        let second = try await session.nextMessage()
        #expect(second["id"] == 2)
        #expect(second["result"]?["value"] == ["lemon"])
        try await nothingElseArrives(on: session)
        #expect(try await session.get("q", "results") == ["lemon"])
    }
}
