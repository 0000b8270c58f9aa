import Testing
import VMTransport
import VMTestSupport

/// Once idle after a burst, the daemon gives freed heap back.
@Suite("Freed heap is given back once the daemon is idle after a burst", .offTheCooperativePool)
struct HeapTrimTests {
    static let trimmed = "gave freed heap back to the system"

    @Test("a burst of frames followed by quiet trims the heap once")
    func burstThenIdleTrims() throws {
        let harness = try ScriptedDaemon { $0.trimsHeapAfterIdle = .milliseconds(50) }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try Self.burst(on: client)
        #expect(Waiting.until(timeout: .seconds(5)) { harness.daemon.log.contains(Self.trimmed) })
        Waiting.pause(.milliseconds(300))
        #expect(harness.daemon.log.all.filter { $0.contains(Self.trimmed) }.count == 1)
    }

    @Test("a client polling now and then does not keep the heap from being trimmed after a burst")
    func tricklingPollStillTrims() throws {
        let harness = try ScriptedDaemon { $0.trimsHeapAfterIdle = .milliseconds(200) }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try Self.burst(on: client)
        // One request every 50 ms, as a monitor would poll: never a whole idle period
        // without a frame, yet only a trickle.
        var trimmed = false
        for _ in 0..<100 where !trimmed {
            try client.sendLine("[0]")
            #expect(try client.readLine() == "[0]")
            Waiting.pause(.milliseconds(50))
            trimmed = harness.daemon.log.contains(Self.trimmed)
        }
        #expect(trimmed)
    }

    @Test("a closed connection counts as a burst; a few frames alone do not")
    func closedConnectionTrims() throws {
        let harness = try ScriptedDaemon { $0.trimsHeapAfterIdle = .milliseconds(50) }
        defer { harness.stop() }
        let client = try harness.connect()
        try client.sendLine("[1]")
        #expect(try client.readLine() == "[1]")
        Waiting.pause(.milliseconds(300))
        #expect(!harness.daemon.log.contains(Self.trimmed))
        client.close()
        #expect(Waiting.until(timeout: .seconds(5)) { harness.daemon.log.contains(Self.trimmed) })
    }

    /// 300 frames in one write, so the burst reaches the daemon at once however busy the
    /// machine is; returns once every echo is read.
    static func burst(on client: SocketClient) throws {
        try client.write(Array((0..<300).map { "[\($0)]\n" }.joined().utf8))
        for index in 0..<300 {
            #expect(try client.readLine() == "[\(index)]")
        }
    }

    @Test("without trimsHeapAfterIdle nothing is trimmed")
    func disabled() throws {
        let harness = try ScriptedDaemon { $0.trimsHeapAfterIdle = nil }
        defer { harness.stop() }
        let client = try harness.connect()
        try Self.burst(on: client)
        client.close()
        Waiting.pause(.milliseconds(300))
        #expect(!harness.daemon.log.contains(Self.trimmed))
    }
}
