import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("Slow readers: overflow, coalescing and drain (PROTOCOL.md section 7)")
struct OverflowTests {
    /// A connection watching `t` (count, milestone, parity) with replay off, whose sink holds
    /// bytes; `fill()` pushes its pending bytes to the limit.
    func slowReader(slowClient: SlowClientMode = .coalesce) async throws -> (InMemoryServer, RPCSession, RPCSession) {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxOutboundBytes: 1000), slowClient: slowClient)
        let writer = fixture.open()
        let reader = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        reader.sink.holdsBytes = true
        return (fixture, writer, reader)
    }

    func add(_ writer: RPCSession, _ step: Int) async throws {
        try await writer.notify("vm.send", json(#"{"instance":"t","input":"add","value":\#(step)}"#))
    }

    @Test("while full, values consume seqs unwritten; on drain vm.overflow names them, then the newest states")
    func overflowAndDrain() async throws {
        let (fixture, writer, reader) = try await slowReader()
        try await add(writer, 1)
        #expect(try await reader.takeAvailable().map(output) == ["sub-1 #1 count=1", "sub-1 #2 parity=\"odd\""])
        reader.sink.pendingBytes = 1000
        try await add(writer, 9)   // count 10 (#3), parity even (#4), milestone 10 (#5)
        try await add(writer, 1)   // count 11 (#6), parity odd (#7)
        try await add(writer, 1)   // count 12 (#8), parity even (#9)
        #expect(try await reader.takeAvailable().isEmpty)
        reader.sink.flush()
        try await add(writer, 1)   // still losing until the drain is reported: count 13 (#10), parity odd (#11)
        #expect(try await reader.takeAvailable().isEmpty)
        fixture.server.connectionDrained(reader.id)
        let messages = try await reader.takeAvailable()
        #expect(messages.first == json(#"{"jsonrpc":"2.0","method":"vm.overflow","params":{"subscription":"sub-1","instance":"t","lost":{"from":3,"to":11}}}"#))
        #expect(messages.dropFirst().map(output) == ["sub-1 #12 count=13", "sub-1 #13 parity=\"odd\""])
        try await add(writer, 1)
        #expect(try await reader.takeAvailable().map(output) == ["sub-1 #14 count=14", "sub-1 #15 parity=\"even\""])
        #expect(fixture.events.contains(.overflow(connection: reader.id, subscription: "sub-1", lost: 3...11)))
    }

    @Test("responses, vm.closed and vm.error are still written while full")
    func neverDropped() async throws {
        let (_, writer, reader) = try await slowReader()
        reader.sink.pendingBytes = 5000
        #expect(try await reader.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":0}"#))
        try await reader.notify("vm.send", json(#"{"instance":"t","input":"nope"}"#))
        #expect(try await reader.notifications("vm.error").count == 1)
        _ = try await writer.result("vm.destroy", json(#"{"instance":"t"}"#))
        #expect(try await reader.notifications("vm.closed").count == 1)
    }

    @Test("losses are reported per subscription in the order they began; other connections are unaffected")
    func severalSubscriptions() async throws {
        let (fixture, writer, reader) = try await slowReader()
        let healthy = fixture.open()
        _ = try await healthy.result("vm.subscribe", json(#"{"instance":"t","outputs":["count"],"replay":false}"#))
        _ = try await writer.result("vm.create", json(#"{"type":"Tally","id":"u"}"#))
        reader.sink.holdsBytes = false
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"u","outputs":["count"],"replay":false}"#))
        reader.sink.holdsBytes = true
        reader.sink.pendingBytes = 1000
        try await writer.notify("vm.send", json(#"{"instance":"u","input":"add"}"#))
        try await add(writer, 2)
        #expect(try await healthy.takeAvailable().map(output) == ["sub-2 #1 count=2"])
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        let messages = try await reader.takeAvailable()
        #expect(messages.map { $0["method"]?.stringValue ?? "" } == ["vm.overflow", "vm.output", "vm.overflow", "vm.output"])
        #expect(messages[0]["params"]?["subscription"] == "sub-3")
        #expect(messages[2]["params"]?["subscription"] == "sub-1")
        #expect(messages[2]["params"]?["lost"] == json(#"{"from":1,"to":1}"#))
        #expect(output(messages[3]) == "sub-1 #2 count=2")
    }

    @Test("an event-only loss reports the gap and writes no value")
    func eventsDropped() async throws {
        let (fixture, writer, reader) = try await slowReader()
        _ = try await reader.result("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))
        reader.sink.flush()
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"t","outputs":["milestone"]}"#))
        reader.sink.flush()
        _ = try await reader.takeAvailable()
        reader.sink.pendingBytes = 2000
        try await add(writer, 10)
        try await add(writer, 10)
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        #expect(try await reader.takeAvailable() == [json(#"{"jsonrpc":"2.0","method":"vm.overflow","params":{"subscription":"sub-2","instance":"t","lost":{"from":1,"to":2}}}"#)])
    }

    @Test("a subscription ended while losing reports nothing on drain")
    func unsubscribedWhileLosing() async throws {
        let (fixture, writer, reader) = try await slowReader()
        reader.sink.pendingBytes = 1000
        try await add(writer, 1)
        _ = try await reader.result("vm.unsubscribe", json(#"{"subscription":"sub-1"}"#))
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        #expect(try await reader.takeAvailable().isEmpty)
    }

    @Test("the server never disconnects a full reader itself: under --slow-client disconnect that is the transport's")
    func disconnectIsTheTransports() async throws {
        let (fixture, writer, reader) = try await slowReader(slowClient: .disconnect)
        reader.sink.pendingBytes = 1000
        try await add(writer, 1)
        try await add(writer, 1)
        fixture.scheduler.advance()
        #expect(reader.sink.closeCount == 0)
        #expect(try await reader.takeAvailable().isEmpty)
    }

    @Test("fullness is the sink's word: pending bytes under a sink that says full still hold outputs back")
    func fullIsTheSinksWord() async throws {
        let (fixture, writer, reader) = try await slowReader()
        reader.sink.capacity = 10
        reader.sink.pendingBytes = 10
        try await add(writer, 1)
        #expect(try await reader.takeAvailable().isEmpty)
        reader.sink.capacity = Int.max
        fixture.server.connectionDrained(reader.id)
        #expect(try await reader.takeAvailable().map { $0["method"]?.stringValue ?? "" } == ["vm.overflow", "vm.output", "vm.output"])
    }
}
