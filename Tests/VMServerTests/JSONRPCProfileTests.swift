import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("The JSON-RPC 2.0 profile (PROTOCOL.md section 4)")
struct JSONRPCProfileTests {
    @Test("ids are echoed exactly: string, integer, number literal, null", arguments: [
        #""abc""#, "7", "-3", "1.50", "1e3", "12345678901234567890", "null",
    ])
    func idEcho(id: String) async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send(#"{"jsonrpc":"2.0","id":"# + id + #","method":"vm.list"}"#)
        #expect(client.sink.texts == [#"{"jsonrpc":"2.0","id":"# + id + #","result":{"instances":[]}}"#])
    }

    @Test("notifications are never answered, even unknown methods or bad params")
    func notificationsGetNothing() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.notify("vm.list")
        try await client.notify("no.such.method")
        try await client.notify("vm.get", json(#"{"instance":1}"#))
        #expect(client.sink.messages.isEmpty)
    }

    @Test("invalid JSON is a parseError with id null and the connection stays usable")
    func parseError() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send(#"{"jsonrpc":"2.0","id":1,"#)
        let response = try #require(try await client.takeAvailable().first)
        #expect(response["id"] == .null)
        #expect(response["error"]?["code"] == -32700)
        #expect(response["error"]?["data"] == json(#"{"name":"parseError"}"#))
        #expect(try await client.result("vm.list") == json(#"{"instances":[]}"#))
        #expect(!client.sink.isClosed)
    }

    @Test("a message nested deeper than maxDepth gets limitReached with id null")
    func depthLimit() async throws {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxDepth: 4))
        let client = fixture.open()
        try await client.send(#"{"jsonrpc":"2.0","id":1,"method":"vm.list","params":{"a":[[[1]]]}}"#)
        let response = try #require(try await client.takeAvailable().first)
        #expect(response["id"] == .null)
        #expect(response["error"]?["data"] == json(#"{"name":"limitReached","limit":"maxDepth","value":4}"#))
        #expect(response["error"]?["code"] == -31010)
    }

    @Test("not a request: invalidRequest, with the id when it is readable")
    func invalidRequests() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send(#"{"jsonrpc":"1.0","id":9,"method":"vm.list"}"#)
        try await client.send(#"{"jsonrpc":"2.0","id":10}"#)
        try await client.send(#"1"#)
        try await client.send(#"{"jsonrpc":"2.0","id":11,"result":1}"#)
        let responses = try await client.takeAvailable()
        #expect(responses.map { $0["id"] } == [9, 10, .null, 11])
        #expect(responses.allSatisfy { $0["error"]?["code"] == -32600 && $0["error"]?["data"]?["name"] == "invalidRequest" })
    }

    @Test("an unknown method is methodNotFound naming it")
    func methodNotFound() async throws {
        let fixture = try InMemoryServer.forTests()
        let error = try await fixture.open().failure("vm.sned")
        #expect(error["code"] == -32601)
        #expect(error["data"] == json(#"{"name":"methodNotFound","method":"vm.sned"}"#))
        #expect(error["message"] == #"Unknown method "vm.sned"; rpc.discover lists every method."#)
    }

    @Test("params must be an object; omitted params mean {}")
    func paramsByName() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let error = try await client.failure("vm.list", .array([]))
        #expect(error["data"] == json(#"{"name":"invalidParams","path":"","expected":"object","got":"array"}"#))
        try await client.send(#"{"jsonrpc":"2.0","id":2,"method":"vm.list"}"#)
        #expect(try await client.takeAvailable().first?["result"] == json(#"{"instances":[]}"#))
    }

    @Test("a member the method does not define is invalidParams naming it")
    func unknownParam() async throws {
        let fixture = try InMemoryServer.forTests()
        let error = try await fixture.open().failure("vm.list", json(#"{"verbose":true}"#))
        #expect(error["data"]?["path"] == "/verbose")
        #expect(error["code"] == -32602)
    }

    @Test("blank frames are ignored")
    func blankFrames() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send("  \r")
        #expect(client.sink.messages.isEmpty)
    }
}

@Suite("Batches")
struct BatchTests {
    @Test("items run in order and the responses come in one array after their notifications")
    func inOrder() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t","subscribe":{"outputs":["count"]}}"#))
        _ = try await client.takeAvailable()
        try await client.send(#"""
        [{"jsonrpc":"2.0","id":8,"method":"vm.send","params":{"instance":"t","input":"decrement"}},
         {"jsonrpc":"2.0","id":9,"method":"vm.get","params":{"instance":"t","output":"count"}},
         {"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}]
        """#)
        let messages = try await client.takeAvailable()
        #expect(messages.count == 3)
        #expect(messages[0]["params"]?["value"] == -1)
        #expect(messages[1]["params"]?["value"] == 0)
        #expect(messages[2] == json(#"[{"jsonrpc":"2.0","id":8,"result":null},{"jsonrpc":"2.0","id":9,"result":{"value":-1}}]"#))
    }

    @Test("an empty batch gets one invalidRequest with id null, not an array")
    func empty() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send("[]")
        let messages = try await client.takeAvailable()
        #expect(messages.count == 1)
        #expect(messages.first?["id"] == .null)
        #expect(messages.first?["error"]?["code"] == -32600)
    }

    @Test("a batch of notifications gets no response")
    func onlyNotifications() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        try await client.send(#"[{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}},{"jsonrpc":"2.0","method":"vm.list"}]"#)
        #expect(try await client.takeAvailable().isEmpty)
        #expect(try await client.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":1}"#))
    }

    @Test("more than maxBatchItems: one limitReached error, nothing runs")
    func tooMany() async throws {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxBatchItems: 2))
        let client = fixture.open()
        let create = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}}"#
        try await client.send("[\(create),\(create),\(create)]")
        let messages = try await client.takeAvailable()
        #expect(messages.count == 1)
        #expect(messages.first?["id"] == .null)
        #expect(messages.first?["error"]?["data"] == json(#"{"name":"limitReached","limit":"maxBatchItems","value":2}"#))
        #expect(fixture.host.count == 0)
        try await client.send("[\(create),\(create)]")
        #expect(try await client.takeAvailable().first?.arrayValue?.count == 2)
    }

    @Test("an invalid item gets invalidRequest with id null in its place")
    func invalidItem() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send(#"[1,{"jsonrpc":"2.0","id":"x","method":"vm.list"}]"#)
        let array = try #require(try await client.takeAvailable().first?.arrayValue)
        #expect(array.count == 2)
        #expect(array[0]["id"] == .null)
        #expect(array[0]["error"]?["code"] == -32600)
        #expect(array[1]["id"] == "x")
    }

    @Test("a pending vm.execute delays the whole batch response")
    func waitsForExecute() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":50}}"#))
        try await client.send(#"[{"jsonrpc":"2.0","id":1,"method":"vm.execute","params":{"instance":"s","action":"work","value":4}},{"jsonrpc":"2.0","id":2,"method":"vm.list"}]"#)
        #expect(try await client.takeAvailable().isEmpty)
        fixture.scheduler.advance(by: .milliseconds(50))
        let array = try #require(try await client.takeAvailable().first?.arrayValue)
        #expect(array.map { $0["id"] } == [1, 2])
        #expect(array[0]["result"] == json(#"{"value":4}"#))
    }
}
