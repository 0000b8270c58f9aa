import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("Ordering guarantees O1-O11 (PROTOCOL.md section 9)")
struct OrderingTests {
    func tally(_ fixture: InMemoryServer, _ client: RPCSession, id: String = "t") async throws {
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"\#(id)"}"#))
    }

    @Test("O1: the vm.subscribe response is written before any notification of it")
    func o1() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await tally(fixture, client)
        let id = try await client.request("vm.subscribe", json(#"{"instance":"t"}"#))
        let messages = try await client.takeAvailable()
        #expect(messages.first?["id"] == id)
        #expect(messages.dropFirst().allSatisfy { $0["method"] == "vm.output" })
        #expect(messages.count == 3)
    }

    @Test("O2: replayed values come at once, before any newer value, seq 1, 2, ...")
    func o2() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await tally(fixture, client)
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","outputs":["parity","count"]}"#))
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(try await client.takeAvailable().map(output) == [
            "sub-1 #1 count=0 replay", "sub-1 #2 parity=\"even\" replay", "sub-1 #3 count=1", "sub-1 #4 parity=\"odd\"",
        ])
    }

    @Test("O3: with vm.create's subscribe, what the instance emits while starting arrives from seq 1")
    func o3() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Loader","subscribe":{"outputs":["loaded"]}}"#))
        fixture.scheduler.advance()
        #expect(try await client.takeAvailable().map(output) == ["sub-1 #1 loaded=3"])
    }

    @Test("O4: a reply follows every notification its request caused on the connection")
    func o4() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await tally(fixture, client)
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","outputs":["count"],"replay":false}"#))
        let send = try await client.request("vm.send", json(#"{"instance":"t","input":"add","value":2}"#))
        #expect(try await client.takeAvailable().map { $0["id"] ?? .string(output($0)) } == [.string("sub-1 #1 count=2"), send])
        let destroy = try await client.request("vm.destroy", json(#"{"instance":"t"}"#))
        #expect(try await client.takeAvailable().map { $0["id"] ?? $0["method"] ?? .null } == ["vm.closed", destroy])

        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":10}}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"s","replay":false}"#))
        let execute = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":4}"#))
        fixture.scheduler.advance(by: .milliseconds(10))
        let after = try await client.takeAvailable()
        #expect(after.last?["id"] == execute)
        #expect(after.dropLast().map(output) == ["sub-2 #1 busy=true", "sub-2 #2 done=4", "sub-2 #3 busy=false"])
    }

    @Test("O5: every subscription on every connection sees one instance's values in one order")
    func o5() async throws {
        let fixture = try InMemoryServer.forTests()
        let a = fixture.open(), b = fixture.open()
        try await tally(fixture, a)
        _ = try await a.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = try await b.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        for step in 1...12 {
            try await (step.isMultiple(of: 2) ? a : b).notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(step)}"#))
        }
        let valuesA = try await a.takeAvailable().compactMap { $0["params"].map { "\($0["output"]!)=\($0["value"]!)" } }
        let valuesB = try await b.takeAvailable().compactMap { $0["params"].map { "\($0["output"]!)=\($0["value"]!)" } }
        #expect(valuesA.count > 12)
        #expect(valuesA == valuesB)
    }

    @Test("O6: calls on one instance are processed one at a time in arrival order")
    func o6() async throws {
        let fixture = try InMemoryServer.forTests()
        let a = fixture.open(), b = fixture.open()
        try await tally(fixture, a)
        try await a.notify("vm.send", json(#"{"instance":"t","input":"set","value":5}"#))
        try await b.notify("vm.send", json(#"{"instance":"t","input":"add","value":10}"#))
        try await a.notify("vm.send", json(#"{"instance":"t","input":"decrement"}"#))
        #expect(try await b.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":14}"#))
    }

    @Test("O7: a slow action blocks no other call, instance or connection")
    func o7() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open(), other = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":1000}}"#))
        try await tally(fixture, client)
        let pending = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        #expect(try await client.result("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":true}"#))
        #expect(try await other.result("vm.send", json(#"{"instance":"t","input":"add"}"#)) == .null)
        #expect(try await other.result("vm.list")["instances"]?.arrayValue?.count == 2)
        #expect(await (try? client.response(to: pending, timeout: .zero)) == nil)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(try await client.response(to: pending)["result"] == json(#"{"value":1}"#))
    }

    @Test("O8: exactly one reply per request, whatever races it")
    func o8() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":10}}"#))
        let id = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":10}"#))
        fixture.scheduler.advance(by: .milliseconds(10))
        try await client.notify("$/cancelRequest", json(#"{"id":\#(id)}"#))
        _ = try await client.result("vm.destroy", json(#"{"instance":"s"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(try await client.takeAvailable().filter { $0["id"] == id }.count == 1)
    }

    @Test("O9: nothing of a subscription after its unsubscribe reply or its vm.closed")
    func o9() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await tally(fixture, client)
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = try await client.result("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(try await client.takeAvailable().allSatisfy { $0["params"]?["subscription"] == "sub-2" })
        _ = try await client.result("vm.destroy", json(#"{"instance":"t"}"#))
        let closed = try await client.takeAvailable()
        #expect(closed.last?["method"] == "vm.closed")
        #expect(fixture.server.subscriptionCount == 0)
    }

    @Test("O10: seq grows by one per written notification, gaps only across vm.overflow")
    func o10() async throws {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxOutboundBytes: 400))
        let writer = fixture.open(), reader = fixture.open()
        try await tally(fixture, writer)
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"t"}"#))
        reader.sink.holdsBytes = true
        var seen: [JSONValue] = []
        for round in 0..<40 {
            try await writer.notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(round % 7)}"#))
            if round % 9 == 8 {
                reader.sink.flush()
                fixture.server.connectionDrained(reader.id)
            }
            seen += try await reader.takeAvailable()
        }
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        seen += try await reader.takeAvailable()
        var expected: Int64 = 1
        var overflows = 0
        for message in seen {
            let params = message["params"] ?? .null
            if message["method"] == "vm.overflow" {
                #expect(params["lost"]?["from"]?.int64Value == expected)
                expected = (params["lost"]?["to"]?.int64Value ?? 0) + 1
                overflows += 1
            } else if message["method"] == "vm.output" {
                #expect(params["seq"]?.int64Value == expected)
                expected += 1
            }
        }
        #expect(overflows > 0)
    }

    @Test("O11: batch items run in array order as if sent one by one")
    func o11() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.send(#"""
        [{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","id":"b"}},
         {"jsonrpc":"2.0","id":2,"method":"vm.send","params":{"instance":"b","input":"set","value":3}},
         {"jsonrpc":"2.0","id":3,"method":"vm.get","params":{"instance":"b","output":"count"}}]
        """#)
        let array = try #require(try await client.takeAvailable().first?.arrayValue)
        #expect(array.map { $0["id"] } == [1, 2, 3])
        #expect(array[2]["result"] == json(#"{"value":3}"#))
    }
}
