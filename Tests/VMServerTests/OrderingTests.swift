import JSONCore
import Testing
import VMProtocol
import VMServer

@Suite("Ordering guarantees O1-O11 (PROTOCOL.md section 9)")
struct OrderingTests {
    func tally(_ fixture: ServerFixture, _ client: TestClient, id: String = "t") {
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"\#(id)"}"#))
    }

    @Test("O1: the vm.subscribe response is written before any notification of it")
    func o1() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        tally(fixture, client)
        let id = client.request("vm.subscribe", json(#"{"instance":"t"}"#))
        let messages = client.take()
        #expect(messages.first?["id"] == .integer(id))
        #expect(messages.dropFirst().allSatisfy { $0["method"] == "vm.output" })
        #expect(messages.count == 3)
    }

    @Test("O2: replayed values come at once, before any newer value, seq 1, 2, ...")
    func o2() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        tally(fixture, client)
        _ = client.call("vm.subscribe", json(#"{"instance":"t","outputs":["parity","count"]}"#))
        client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(client.take().map(output) == [
            "sub-1 #1 count=0 replay", "sub-1 #2 parity=\"even\" replay", "sub-1 #3 count=1", "sub-1 #4 parity=\"odd\"",
        ])
    }

    @Test("O3: with vm.create's subscribe, what the instance emits while starting arrives from seq 1")
    func o3() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Loader","subscribe":{"outputs":["loaded"]}}"#))
        fixture.scheduler.advance()
        #expect(client.take().map(output) == ["sub-1 #1 loaded=3"])
    }

    @Test("O4: a reply follows every notification its request caused on the connection")
    func o4() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        tally(fixture, client)
        _ = client.call("vm.subscribe", json(#"{"instance":"t","outputs":["count"],"replay":false}"#))
        let send = client.request("vm.send", json(#"{"instance":"t","input":"add","value":2}"#))
        #expect(client.take().map { $0["id"] ?? .string(output($0)) } == [.string("sub-1 #1 count=2"), .integer(send)])
        let destroy = client.request("vm.destroy", json(#"{"instance":"t"}"#))
        #expect(client.take().map { $0["id"] ?? $0["method"] ?? .null } == ["vm.closed", .integer(destroy)])

        _ = client.call("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":10}}"#))
        _ = client.call("vm.subscribe", json(#"{"instance":"s","replay":false}"#))
        let execute = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":4}"#))
        fixture.scheduler.advance(by: .milliseconds(10))
        let after = client.take()
        #expect(after.last?["id"] == .integer(execute))
        #expect(after.dropLast().map(output) == ["sub-2 #1 busy=true", "sub-2 #2 done=4", "sub-2 #3 busy=false"])
    }

    @Test("O5: every subscription on every connection sees one instance's values in one order")
    func o5() throws {
        let fixture = try ServerFixture()
        let a = fixture.connect(), b = fixture.connect()
        tally(fixture, a)
        _ = a.call("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = b.call("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        for step in 1...12 {
            (step.isMultiple(of: 2) ? a : b).notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(step)}"#))
        }
        let valuesA = a.take().compactMap { $0["params"].map { "\($0["output"]!)=\($0["value"]!)" } }
        let valuesB = b.take().compactMap { $0["params"].map { "\($0["output"]!)=\($0["value"]!)" } }
        #expect(valuesA.count > 12)
        #expect(valuesA == valuesB)
    }

    @Test("O6: calls on one instance are processed one at a time in arrival order")
    func o6() throws {
        let fixture = try ServerFixture()
        let a = fixture.connect(), b = fixture.connect()
        tally(fixture, a)
        a.notify("vm.send", json(#"{"instance":"t","input":"set","value":5}"#))
        b.notify("vm.send", json(#"{"instance":"t","input":"add","value":10}"#))
        a.notify("vm.send", json(#"{"instance":"t","input":"decrement"}"#))
        #expect(b.call("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":14}"#))
    }

    @Test("O7: a slow action blocks no other call, instance or connection")
    func o7() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect(), other = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":1000}}"#))
        tally(fixture, client)
        let pending = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        #expect(client.call("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":true}"#))
        #expect(other.call("vm.send", json(#"{"instance":"t","input":"add"}"#)) == .null)
        #expect(other.call("vm.list")["instances"]?.arrayValue?.count == 2)
        #expect(client.response(to: pending) == nil)
        fixture.scheduler.advance(by: .seconds(1))
        #expect(client.response(to: pending)?["result"] == json(#"{"value":1}"#))
    }

    @Test("O8: exactly one reply per request, whatever races it")
    func o8() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":10}}"#))
        let id = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":10}"#))
        fixture.scheduler.advance(by: .milliseconds(10))
        client.notify("$/cancelRequest", json(#"{"id":\#(id)}"#))
        _ = client.call("vm.destroy", json(#"{"instance":"s"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(client.take().filter { $0["id"] == .integer(id) }.count == 1)
    }

    @Test("O9: nothing of a subscription after its unsubscribe reply or its vm.closed")
    func o9() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        tally(fixture, client)
        _ = client.call("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = client.call("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = client.call("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))
        client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(client.take().allSatisfy { $0["params"]?["subscription"] == "sub-2" })
        _ = client.call("vm.destroy", json(#"{"instance":"t"}"#))
        let closed = client.take()
        #expect(closed.last?["method"] == "vm.closed")
        #expect(fixture.server.subscriptionCount == 0)
    }

    @Test("O10: seq grows by one per written notification, gaps only across vm.overflow")
    func o10() throws {
        let fixture = try ServerFixture(limits: VMLimits(maxOutboundBytes: 400))
        let writer = fixture.connect(), reader = fixture.connect()
        tally(fixture, writer)
        _ = reader.call("vm.subscribe", json(#"{"instance":"t"}"#))
        reader.sink.holdsBytes = true
        var seen: [JSONValue] = []
        for round in 0..<40 {
            writer.notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(round % 7)}"#))
            if round % 9 == 8 {
                reader.sink.flush()
                fixture.server.connectionDrained(reader.id)
            }
            seen += reader.take()
        }
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        seen += reader.take()
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
    func o11() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        client.write(#"""
        [{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","id":"b"}},
         {"jsonrpc":"2.0","id":2,"method":"vm.send","params":{"instance":"b","input":"set","value":3}},
         {"jsonrpc":"2.0","id":3,"method":"vm.get","params":{"instance":"b","output":"count"}}]
        """#)
        let array = try #require(client.take().first?.arrayValue)
        #expect(array.map { $0["id"] } == [1, 2, 3])
        #expect(array[2]["result"] == json(#"{"value":3}"#))
    }
}
