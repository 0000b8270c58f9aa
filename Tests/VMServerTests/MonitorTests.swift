import JSONCore
import Testing
import VMProtocol
import VMServer

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
    func seesTraffic() throws {
        let fixture = try ServerFixture()
        let watcher = fixture.connect()
        let client = fixture.connect()
        #expect(watcher.call("daemon.monitor") == json(#"{"monitor":"mon-1"}"#))
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t","subscribe":{"outputs":["count"]}}"#))
        #expect(reports(watcher.take()) == ["1 in c2 vm.create", "2 out c2 reply 1", "3 out c2 vm.output"])
    }

    @Test("its own daemon.message notifications are never reported, but its other traffic is")
    func noRecursion() throws {
        let fixture = try ServerFixture()
        let watcher = fixture.connect()
        let second = fixture.connect()
        _ = watcher.call("daemon.monitor")
        _ = second.call("daemon.monitor")
        _ = watcher.call("vm.list")
        let seen = reports(watcher.take())
        #expect(seen == ["1 in c2 daemon.monitor", "2 out c2 reply 1", "3 in c1 vm.list", "4 out c1 reply 2"])
        #expect(reports(second.take()) == ["1 in c1 vm.list", "2 out c1 reply 2"])
    }

    @Test("an unreadable frame is reported as a string of its text")
    func invalidFrames() throws {
        let fixture = try ServerFixture()
        let watcher = fixture.connect()
        let client = fixture.connect()
        _ = watcher.call("daemon.monitor")
        client.write("{oops")
        let notes = watcher.take().filter { $0["method"] == "daemon.message" }
        #expect(notes.first?["params"]?["message"] == "{oops")
        #expect(notes.first?["params"]?["direction"] == "in")
    }

    @Test("daemon.unmonitor ends it before its reply; unknown monitors fail")
    func unmonitor() throws {
        let fixture = try ServerFixture()
        let watcher = fixture.connect()
        _ = watcher.call("daemon.monitor")
        _ = watcher.take()
        watcher.request("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))
        let messages = watcher.take()
        #expect(reports(messages) == ["1 in c1 daemon.unmonitor"])
        #expect(messages.last?["result"] == json(#"{"unmonitored":true}"#))
        _ = fixture.connect().call("vm.list")
        #expect(watcher.take().isEmpty)
        let error = watcher.callFailing("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))
        #expect(error["data"] == json(#"{"name":"unknownSubscription","subscription":"mon-1"}"#))
    }

    @Test("monitoring is for the daemon's own uid only")
    func sameUserOnly() throws {
        let fixture = try ServerFixture()
        let stranger = fixture.connect(uid: 1234)
        let error = stranger.callFailing("daemon.monitor")
        #expect(error["code"] == -31015)
        #expect(error["data"] == json(#"{"name":"permissionDenied","method":"daemon.monitor"}"#))
        #expect(error["message"] == "daemon.monitor is allowed only to the daemon's own user (uid 1000); this peer is uid 1234.")
        #expect(stranger.callFailing("daemon.unmonitor", json(#"{"monitor":"mon-1"}"#))["code"] == -31015)
    }

    @Test("a slow monitor drops reports; the gap in its seq shows how many")
    func slowMonitor() throws {
        let fixture = try ServerFixture(limits: VMLimits(maxOutboundBytes: 100))
        let watcher = fixture.connect()
        let client = fixture.connect()
        _ = watcher.call("daemon.monitor")
        watcher.sink.pendingBytes = 100
        _ = client.call("vm.list")
        watcher.sink.pendingBytes = 0
        _ = client.call("vm.list")
        #expect(reports(watcher.take()) == ["3 in c2 vm.list", "4 out c2 reply 2"])
    }

    @Test("closing the monitoring connection ends its monitor")
    func closeEnds() throws {
        let fixture = try ServerFixture()
        let watcher = fixture.connect()
        _ = watcher.call("daemon.monitor")
        watcher.close()
        _ = fixture.connect().call("vm.list")
        #expect(watcher.sink.messages.isEmpty)
    }
}
