import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("daemon.monitor (PROTOCOL.md section 13)")
struct MonitorTests {
    /// `direction connection method-or-id` of each daemon.message, with its seq.
    func reports(_ messages: [JSONValue]) -> [String] {
        messages.filter { $0["method"] == "daemon.message" }.map { note in
            let params = note["params"] ?? .null
            let message = params["message"] ?? .null
            let what = message["method"]?.stringValue ?? message["id"].map { "reply \($0)" } ?? message.description
            return "\(params["seq"] ?? .null) \(params["direction"]?.stringValue ?? "?") c\(params["connection"] ?? .null) \(what)"
        }
    }

    @Test("reports every message in and out of every connection, from its response on")
    func seesTraffic() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        let client = fixture.open()
        #expect(try await watcher.result("daemon.monitor") == json(#"{"monitor":"mon-1"}"#))
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t","subscribe":{"outputs":["count"]}}"#))
        #expect(reports(try await watcher.takeAvailable()) == ["1 in c2 vm.create", "2 out c2 reply 1", "3 out c2 vm.output"])
    }

    @Test("its own daemon.message notifications are never reported, but its other traffic is")
    func noRecursion() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        let second = fixture.open()
        _ = try await watcher.result("daemon.monitor")
        _ = try await second.result("daemon.monitor")
        _ = try await watcher.result("vm.list")
        let seen = reports(try await watcher.takeAvailable())
        #expect(seen == ["1 in c2 daemon.monitor", "2 out c2 reply 1", "3 in c1 vm.list", "4 out c1 reply 2"])
        #expect(reports(try await second.takeAvailable()) == ["1 in c1 vm.list", "2 out c1 reply 2"])
    }

    @Test("an unreadable frame is reported as a string of its text")
    func invalidFrames() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        let client = fixture.open()
        _ = try await watcher.result("daemon.monitor")
        try await client.send("{oops")
        let notes = try await watcher.takeAvailable().filter { $0["method"] == "daemon.message" }
        #expect(notes.first?["params"]?["message"] == "{oops")
        #expect(notes.first?["params"]?["direction"] == "in")
    }

    @Test("daemon.unmonitor ends it before its reply; unknown monitors fail")
    func unmonitor() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        _ = try await watcher.result("daemon.monitor")
        _ = try await watcher.takeAvailable()
        try await watcher.request("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))
        let messages = try await watcher.takeAvailable()
        #expect(reports(messages) == ["1 in c1 daemon.unmonitor"])
        #expect(messages.last?["result"] == json(#"{"unmonitored":true}"#))
        _ = try await fixture.open().result("vm.list")
        #expect(try await watcher.takeAvailable().isEmpty)
        let error = try await watcher.failure("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))
        #expect(error["data"] == json(#"{"name":"unknownSubscription","subscription":"mon-1"}"#))
    }

    @Test("monitoring is for the daemon's own uid only")
    func sameUserOnly() async throws {
        let fixture = try InMemoryServer.forTests()
        let stranger = fixture.open(uid: 1234)
        let error = try await stranger.failure("daemon.monitor")
        #expect(error["code"] == -31015)
        #expect(error["data"] == json(#"{"name":"permissionDenied","method":"daemon.monitor"}"#))
        #expect(error["message"] == "daemon.monitor is allowed only to the daemon's own user (uid 1000); this peer is uid 1234.")
        #expect(try await stranger.failure("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))["code"] == -31015)
    }

    @Test("a slow monitor drops reports; the gap in its seq shows how many")
    func slowMonitor() async throws {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxOutboundBytes: 100))
        let watcher = fixture.open()
        let client = fixture.open()
        _ = try await watcher.result("daemon.monitor")
        watcher.sink.pendingBytes = 100
        _ = try await client.result("vm.list")
        watcher.sink.pendingBytes = 0
        _ = try await client.result("vm.list")
        #expect(reports(try await watcher.takeAvailable()) == ["3 in c2 vm.list", "4 out c2 reply 2"])
    }

    @Test("closing the monitoring connection ends its monitor")
    func closeEnds() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        _ = try await watcher.result("daemon.monitor")
        watcher.close()
        _ = try await fixture.open().result("vm.list")
        #expect(watcher.sink.messages.isEmpty)
    }
}
