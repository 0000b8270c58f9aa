import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

/// `{subscription, output, value, seq, replay?}` of a vm.output, for compact expectations.
func output(_ message: JSONValue) -> String {
    guard let params = message["params"], message["method"] == "vm.output" else { return "not vm.output: \(message)" }
    let replay = params["replay"] == true ? " replay" : ""
    return "\(params["subscription"]?.stringValue ?? "?") #\(params["seq"]?.description ?? "?") \(params["output"]?.stringValue ?? "?")=\(params["value"]?.description ?? "?")\(replay)"
}

@Suite("Subscriptions")
struct SubscriptionTests {
    @Test("vm.subscribe replays state outputs in vm.types order, then live values with growing seq")
    func replayThenLive() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t","args":{"start":9}}"#))
        #expect(try await client.result("vm.subscribe", json(#"{"instance":"t"}"#)) == json(#"{"subscription":"sub-1"}"#))
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(try await client.takeAvailable().map(output) == [
            "sub-1 #1 count=9 replay", "sub-1 #2 parity=\"odd\" replay",
            "sub-1 #3 count=10", "sub-1 #4 parity=\"even\"", "sub-1 #5 milestone=10",
        ])
    }

    @Test("replay false starts with the next value; outputs filters, duplicates once")
    func options() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","outputs":["count","count"],"replay":false}"#))
        #expect(try await client.takeAvailable().isEmpty)
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(try await client.takeAvailable().map(output) == ["sub-1 #1 count=1"])
    }

    @Test("event outputs are never replayed")
    func eventsNotReplayed() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t","args":{"start":9}}"#))
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","outputs":["milestone"]}"#))
        #expect(try await client.takeAvailable().isEmpty)
    }

    @Test("vm.subscribe errors: unknownOutput opens nothing, unknownInstance, invalidParams for []")
    func errors() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        let unknown = try await client.failure("vm.subscribe", json(#"{"instance":"t","outputs":["count","cont"]}"#))
        #expect(unknown["data"] == json(#"{"name":"unknownOutput","instance":"t","output":"cont"}"#))
        #expect(fixture.server.subscriptionCount == 0)
        #expect(try await client.failure("vm.subscribe", json(#"{"instance":"x"}"#))["code"] == -31002)
        #expect(try await client.failure("vm.subscribe", json(#"{"instance":"t","outputs":[]}"#))["code"] == -32602)
    }

    @Test("vm.unsubscribe ends it: nothing of it after the reply; unknown ids and other connections' ids fail")
    func unsubscribe() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let other = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        let foreign = try await other.failure("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))
        #expect(foreign["code"] == -31012)
        #expect(foreign["data"] == json(#"{"name":"unknownSubscription","subscription":"sub-1"}"#))
        #expect(try await client.result("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#)) == json(#"{"unsubscribed":true}"#))
        try await client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(try await client.takeAvailable().isEmpty)
        #expect(try await client.failure("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))["code"] == -31012)
    }

    @Test("maxSubscriptionsPerConnection counts subscriptions and monitors")
    func limit() async throws {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxSubscriptionsPerConnection: 2))
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t"}"#))
        _ = try await client.result("daemon.monitor")
        let error = try await client.failure("vm.subscribe", json(#"{"instance":"t"}"#))
        #expect(error["data"] == json(#"{"name":"limitReached","limit":"maxSubscriptionsPerConnection","value":2}"#))
        let create = try await client.failure("vm.create", json(#"{"type":"Tally","id":"u","subscribe":{}}"#))
        #expect(create["code"] == -31010)
        #expect(fixture.host.count == 1, "a refused subscribe creates nothing")
        #expect(try await fixture.open().result("vm.subscribe", json(#"{"instance":"t"}"#))["subscription"] != nil)
    }

    @Test("several connections see the same values in the same order, from one observation")
    func fanOut() async throws {
        let fixture = try InMemoryServer.forTests()
        let clients = (0..<3).map { _ in fixture.open() }
        _ = try await clients[0].result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        for client in clients { _ = try await client.result("vm.subscribe", json(#"{"instance":"t","outputs":["count","milestone"],"replay":false}"#)) }
        for step in [3, 7, -2, 2] {
            try await clients[1].notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(step)}"#))
        }
        var seen: [[String]] = []
        for client in clients {
            seen.append(try await client.takeAvailable().compactMap { message -> String? in
                guard let params = message["params"] else { return nil }
                return "\(params["seq"]!)\(params["output"]!)=\(params["value"]!)"
            })
        }
        #expect(seen[0] == ["1\"count\"=3", "2\"count\"=10", "3\"milestone\"=10", "4\"count\"=8", "5\"count\"=10", "6\"milestone\"=10"])
        #expect(seen[1] == seen[0])
        #expect(seen[2] == seen[0])
    }

    @Test("vm.create with subscribe is atomic: start-up values arrive from seq 1, in order")
    func createSubscribeAtomic() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        try await client.request("vm.create", json(#"{"type":"Loader","subscribe":{}}"#))
        fixture.scheduler.advance()
        let messages = try await client.takeAvailable()
        #expect(messages.first?["result"] == json(#"{"instance":"loader-1","type":"Loader","scope":"daemon","subscription":"sub-1"}"#))
        #expect(messages.dropFirst().map(output) == ["sub-1 #1 items=0 replay", "sub-1 #2 items=3", "sub-1 #3 loaded=3"])
    }

    @Test("vm.create's subscribe with an unknown output creates nothing")
    func createSubscribeUnknownOutput() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let error = try await client.failure("vm.create", json(#"{"type":"Tally","id":"t","subscribe":{"outputs":["nope"]}}"#))
        #expect(error["code"] == -31004)
        #expect(error["data"] == json(#"{"name":"unknownOutput","instance":"t","output":"nope"}"#))
        #expect(fixture.host.count == 0)
    }
}

@Suite("vm.closed")
struct ClosedTests {
    @Test("vm.destroy tells every subscriber, on every connection, before its reply")
    func destroyed() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let other = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        _ = try await other.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        try await client.request("vm.destroy", json(#"{"instance":"t"}"#))
        let messages = try await client.takeAvailable()
        #expect(messages.count == 2)
        #expect(messages[0] == json(#"{"jsonrpc":"2.0","method":"vm.closed","params":{"instance":"t","subscription":"sub-1","reason":"destroyed"}}"#))
        #expect(messages[1]["result"] == json(#"{"destroyed":true}"#))
        #expect(try await other.takeAvailable() == [json(#"{"jsonrpc":"2.0","method":"vm.closed","params":{"instance":"t","subscription":"sub-2","reason":"destroyed"}}"#)])
        #expect(fixture.server.subscriptionCount == 0)
    }

    @Test("children close with parentDestroyed, before their parent")
    func children() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Family","id":"f","subscribe":{}}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"tally-1","replay":false}"#))
        _ = try await client.takeAvailable()
        _ = try await client.result("vm.destroy", json(#"{"instance":"f"}"#))
        let closed = try await client.notifications("vm.closed").map { "\($0["params"]!["instance"]!) \($0["params"]!["reason"]!)" }
        #expect(closed == [#""tally-1" "parentDestroyed""#, #""f" "destroyed""#])
        #expect(fixture.host.count == 0)
    }

    @Test("a connection-scoped instance goes with its creator; others hear ownerDisconnected")
    func ownerDisconnected() async throws {
        let fixture = try InMemoryServer.forTests()
        let owner = fixture.open()
        let watcher = fixture.open()
        _ = try await owner.result("vm.create", json(#"{"type":"Tally","id":"mine","scope":"connection"}"#))
        _ = try await owner.result("vm.create", json(#"{"type":"Tally","id":"kept"}"#))
        _ = try await watcher.result("vm.subscribe", json(#"{"instance":"mine","replay":false}"#))
        _ = try await owner.result("vm.subscribe", json(#"{"instance":"kept","replay":false}"#))
        owner.close()
        #expect(try await watcher.takeAvailable() == [json(#"{"jsonrpc":"2.0","method":"vm.closed","params":{"instance":"mine","subscription":"sub-1","reason":"ownerDisconnected"}}"#)])
        #expect(owner.sink.messages.isEmpty, "nothing is written to a closed connection")
        #expect(fixture.host.instances.map(\.id) == ["kept"])
        #expect(fixture.server.subscriptionCount == 0, "the owner's own subscriptions end silently")
        #expect(fixture.server.connectionCount == 1)
    }

    @Test("shutdown closes every subscription with reason shutdown; instance calls then answer shuttingDown")
    func shutdown() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Family","id":"f","subscribe":{}}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"tally-1","replay":false}"#))
        _ = try await client.takeAvailable()
        fixture.server.shutdown()
        let reasons = try await client.notifications("vm.closed").compactMap { $0["params"]?["reason"]?.stringValue }
        #expect(reasons == ["shutdown", "shutdown"])
        let error = try await client.failure("vm.create", json(#"{"type":"Tally"}"#))
        #expect(error["code"] == -31014)
        #expect(error["data"] == json(#"{"name":"shuttingDown"}"#))
        #expect(try await client.result("vm.list") == json(#"{"instances":[]}"#))
    }
}
