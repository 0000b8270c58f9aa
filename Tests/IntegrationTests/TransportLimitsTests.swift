import JSONCore
import Posix
import Testing
import VMTestSupport

@Suite("Transport limits and slow readers", .offTheCooperativePool)
struct TransportLimitsTests {
    @Test("a connection over maxConnections gets one limitReached error and is closed")
    func maxConnections() throws {
        let harness = try ScriptedDaemon { $0.limits.maxConnections = 2 }
        defer { harness.stop() }
        let first = try harness.connect()
        let second = try harness.connect()
        defer { first.close(); second.close() }
        try first.sendLine("[1]")
        try second.sendLine("[2]")
        #expect(try first.readLine() == "[1]")
        #expect(try second.readLine() == "[2]")
        let third = try harness.connect()
        defer { third.close() }
        let reply = try third.readMessage()
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["data"]?["limit"]?.stringValue == "maxConnections")
        #expect(reply["error"]?["data"]?["value"]?.intValue == 2)
        #expect(try third.waitForClose())
        #expect(harness.daemon.log.contains("limit maxConnections reached"))
        // The slot frees when a connection leaves.
        first.close()
        #expect(Waiting.until { harness.events.contains("closed c1") })
        let fourth = try harness.connect()
        defer { fourth.close() }
        try fourth.sendLine("[4]")
        #expect(try fourth.readLine() == "[4]")
    }

    @Test("a slow reader is paused, does not block another client, and resumes after draining")
    func slowReaderIsolated() throws {
        let harness = try ScriptedDaemon { $0.limits.maxOutboundBytes = 65_536 }
        defer { harness.stop() }
        let slow = try harness.connect()
        let fast = try harness.connect()
        defer { slow.close(); fast.close() }
        try slow.sendLine(#""flood:4000:1000""#)   // 4 MB for a client that does not read yet
        try slow.sendLine("[\"after\"]")            // must wait until the flood drained
        #expect(Waiting.until { harness.daemon.log.contains("reading paused") })
        for index in 0..<50 {
            try fast.sendLine("[\(index)]")
            #expect(try fast.readLine(timeout: .seconds(5)) == "[\(index)]")
        }
        #expect(!harness.events.contains("frame c1 9 bytes"))  // ["after"] not read while paused
        for _ in 0..<4000 {
            #expect(try slow.readLine().count == 1000)
        }
        #expect(try slow.readLine() == "\"drained\"")
        #expect(try slow.readLine() == "[\"after\"]")
        #expect(harness.events.contains("drained c1"))
    }

    @Test("with --slow-client disconnect a slow reader is closed and the log says so")
    func slowReaderDisconnected() throws {
        let harness = try ScriptedDaemon {
            $0.limits.maxOutboundBytes = 65_536
            $0.slowClient = .disconnect
        }
        defer { harness.stop() }
        let slow = try harness.connect()
        let fast = try harness.connect()
        defer { slow.close(); fast.close() }
        try slow.sendLine(#""flood:4000:1000""#)
        #expect(try slow.waitForClose())
        #expect(harness.daemon.log.contains("disconnecting it (--slow-client disconnect)"))
        #expect(Waiting.until { harness.events.contains("closed c1") })
        try fast.sendLine("[1]")
        #expect(try fast.readLine() == "[1]")
    }

    @Test("a peer that vanishes while output is queued costs nothing (no SIGPIPE, no leak)")
    func peerVanishesMidWrite() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        for _ in 0..<20 {
            let client = try harness.connect()
            try client.sendLine(#""flood:2000:1000""#)
            client.close()
        }
        #expect(Waiting.until { harness.daemon.log.all.filter { $0.contains("connection closed") }.count == 20 })
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine("[\"alive\"]")
        #expect(try client.readLine() == "[\"alive\"]")
    }

    @Test("1,000 concurrent connections are accepted and served by one loop")
    func thousandConnections() throws {
        try ResourceLimits.raiseOpenFileLimit()
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        var clients: [SocketClient] = []
        defer { for client in clients { client.close() } }
        for _ in 0..<1000 { clients.append(try harness.connect()) }
        for (index, client) in clients.enumerated() { try client.sendLine("[\(index)]") }
        var answered = 0
        for (index, client) in clients.enumerated() where try client.readLine() == "[\(index)]" {
            answered += 1
        }
        #expect(answered == 1000)
        #expect(harness.events.contains("opened c1000 "))
    }
}
