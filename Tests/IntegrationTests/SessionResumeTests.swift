import JSONCore
import Posix
import Testing
import VMTestSupport

/// Sessions that survive a reconnect (PROTOCOL.md §18), over the real socket with the real vmd.
@Suite("A resumable session survives its connection", .offTheCooperativePool)
struct SessionResumeTests {
    /// A running vmd with `arguments`, stopped at the end of the test.
    struct Running {
        let directory: TemporarySocketDirectory
        let process: DaemonProcess
        let path: String

        init(_ arguments: [String], abstractName: String? = nil) throws {
            directory = try TemporarySocketDirectory()
            path = abstractName.map { "@" + $0 } ?? directory.socketPath
            process = try DaemonProcess.start(
                socketPath: path, arguments: ["--log-level", "debug"] + arguments, directory: directory)
        }

        /// A new connection that keeps every message it reads (`everythingRead`), so a test
        /// can check seqs across a drop.
        func session() throws -> RPCSession { try RPCSession(socketPath: path, keepingEverythingRead: true) }

        /// Waits (bounded) until the daemon's log contains `text`. It blocks rather than
        /// yielding between looks: a test racing a daemon-side delay (a Login's latency) must
        /// not wait for other tests' turns on a loaded machine (see SocketChannel.swift).
        func waitForLog(_ text: String, count: Int = 1, timeout: Duration = .seconds(10)) throws {
            guard Waiting.until(timeout: timeout, interval: .milliseconds(5), { process.log.components(separatedBy: text).count > count })
            else {
                throw DaemonProcessError("no \"\(text)\" in the log:\n" + process.log)
            }
        }

        /// How many overflow episodes of `subscription` the daemon logged before the first line
        /// containing `text`. Each episode's drain resends the newest value of every coalesced
        /// state output with a fresh seq (PROTOCOL.md §7), so for a Counter (one state output)
        /// it consumes one seq beyond the values produced.
        func overflowEpisodes(of subscription: String, before text: String) -> Int {
            let earlier = process.log.components(separatedBy: text).first ?? ""
            return earlier.components(separatedBy: "subscription \(subscription) lost seq ").count - 1
        }

        /// The reply to `session.resume` with `token` on a new connection, closed afterwards.
        func resumeOnNewConnection(_ token: String) async throws -> JSONValue {
            let session = try session()
            defer { session.close() }
            return try await session.call("session.resume", ["token": .string(token)])
        }

        /// Closes `owner` while a new connection watches `instance`; the `vm.closed` that
        /// connection gets within 5 s (the instance released with its owner).
        func closeWatched(_ owner: RPCSession, instance: String) async throws -> JSONValue {
            let watcher = try session()
            defer { watcher.close() }
            try await watcher.result("vm.subscribe", ["instance": .string(instance)])
            owner.close()
            return try await watcher.nextMessage(timeout: .seconds(5)) { $0["method"] == "vm.closed" }
        }

        func stop() {
            process.stop()
            directory.remove(["input", "output"])
        }
    }

    /// How long a test waits for a notification: in a burst thousands come before it, on a
    /// machine other builds share.
    static let readTimeout: Duration = .seconds(20)

    /// Opens a session on `connection`; its name and token.
    static func open(_ connection: RPCSession, graceMs: Int? = nil) async throws -> (session: String, token: String) {
        let result = try await connection.result("session.open", graceMs.map { ["graceMs": .integer(Int64($0))] } ?? [:])
        let session = try #require(result["session"]?.stringValue)
        let token = try #require(result["token"]?.stringValue)
        return (session, token)
    }

    /// A connection-scoped Counter that `connection` creates; its instance id.
    static func createCounter(_ connection: RPCSession) async throws -> String {
        try #require(try await connection.result("vm.create", ["type": "Counter", "scope": "connection"])["instance"]?.stringValue)
    }

    /// A connection-scoped Counter that `connection` creates subscribed to; its instance and subscription.
    static func createSubscribedCounter(_ connection: RPCSession) async throws -> (instance: String, subscription: String) {
        let created = try await connection.result("vm.create", ["type": "Counter", "scope": "connection", "subscribe": [:]])
        return (try #require(created["instance"]?.stringValue), try #require(created["subscription"]?.stringValue))
    }

    /// A resumable session on `owner` with a Counter it created subscribed to, and a second
    /// connection, `sender`, to send it bursts.
    static func burstScene(_ vmd: Running) async throws -> (
        owner: RPCSession, name: String, token: String, instance: String, subscription: String, sender: RPCSession
    ) {
        let owner = try vmd.session()
        let (name, token) = try await open(owner)
        let (instance, subscription) = try await createSubscribedCounter(owner)
        return (owner, name, token, instance, subscription, try vmd.session())
    }

    /// Sends `count` increments to `instance` as notifications, in one write.
    static func burst(_ connection: RPCSession, instance: String, count: Int) async throws {
        let line = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":""# + instance + #"","input":"increment"}}"#
        try await connection.send(Array(repeating: line, count: count).joined(separator: "\n"))
    }

    /// `instance`'s count, read with vm.get over `connection`.
    static func count(of instance: String, via connection: RPCSession) async throws -> JSONValue? {
        try await connection.result("vm.get", ["instance": .string(instance), "output": "count"])["value"]
    }

    static func countIs(_ value: Int, on subscription: String) -> (JSONValue) -> Bool {
        { message in
            message["method"]?.stringValue == "vm.output" && message["params"]?["subscription"]?.stringValue == subscription
                && message["params"]?["value"]?.intValue == value
        }
    }

    // MARK: Within the grace

    @Test("open answers a name, a 128-bit hex token and the grace capped by --session-grace-ms")
    func openAnswersTokenAndCappedGrace() async throws {
        let vmd = try Running(["--session-grace-ms", "5000"])
        defer { vmd.stop() }
        let session = try vmd.session()
        defer { session.close() }
        let first = try await session.result("session.open", ["graceMs": 999_999])
        #expect(first["graceMs"] == 5000)
        let token = try #require(first["token"]?.stringValue)
        #expect(token.count == 32 && token.allSatisfy { "0123456789abcdef".contains($0) })
        let again = try await session.result("session.open", ["graceMs": 100])
        #expect(again["session"] == first["session"] && again["token"] == first["token"] && again["graceMs"] == 100)
        let limits = try await session.result("daemon.info")["limits"]
        #expect(limits?["sessionGraceMs"] == 5000 && limits?["maxDetachedSessions"] == 100)
        let other = try vmd.session()
        defer { other.close() }
        #expect(try await other.result("session.open")["token"] != first["token"])
    }

    @Test("a socket killed during a 10,000-increment burst resumes: later seqs arrive in order or are covered by vm.overflow")
    func burstSurvivesAClientSideKill() async throws {
        let vmd = try Running(["--session-grace-ms", "20000", "--max-outbound-bytes", "65536"])
        defer { vmd.stop() }
        let (owner, name, token, instance, subscription, sender) = try await Self.burstScene(vmd)
        defer { sender.close() }

        try await Self.burst(sender, instance: instance, count: 5000)
        try await owner.nextMessage(timeout: Self.readTimeout) { ($0["params"]?["seq"]?.intValue ?? 0) >= 500 }
        owner.close()  // mid-stream, whatever the socket still holds is gone with it
        try vmd.waitForLog("session \(name) detached")
        try await Self.burst(sender, instance: instance, count: 5000)
        #expect(try await Self.count(of: instance, via: sender) == 10000)

        let resumed = try vmd.session()
        defer { resumed.close() }
        let reply = try await resumed.result("session.resume", ["token": .string(token)])
        #expect(reply["session"]?.stringValue == name)
        #expect(reply["subscriptions"] == [.string(subscription)])
        #expect(reply["pending"] == [])
        try await resumed.nextMessage(timeout: Self.readTimeout, where: Self.countIs(10000, on: subscription))

        var before = SeqAudit()
        before.follow(owner.everythingRead, subscription: subscription)
        // What the dead socket still held is the one gap (a client counts it lost from the
        // seqs); from the first seq after the resume on: in order, each once, every gap
        // announced by vm.overflow.
        let first = try #require(SeqAudit.firstAccounted(in: resumed.everythingRead, subscription: subscription))
        #expect(first > before.last)
        // The detach came after at most 5,001 seqs for values (the replay and the first
        // 5,000) plus one for each overflow episode the old connection had by then (its drain
        // resent the coalesced count with a fresh seq): every value from then on was queued for
        // the session, so the resumed stream starts there.
        let episodes = vmd.overflowEpisodes(of: subscription, before: "session \(name) detached")
        #expect(first <= 5002 + Int64(episodes), "after \(episodes) overflow episode(s) before the detach")
        var after = SeqAudit(last: first - 1)
        after.follow(resumed.everythingRead, subscription: subscription)
        #expect(before.uncovered.isEmpty && before.disordered.isEmpty)
        #expect(after.uncovered.isEmpty, "seqs neither delivered nor announced: \(after.uncovered)")
        #expect(after.disordered.isEmpty, "seqs twice or out of order: \(after.disordered)")
        // 5,000 values queued while detached are far more than 64 KiB: they were coalesced.
        #expect(!after.overflows.isEmpty)
        #expect(after.lastValue == 10000)
        // The same instance, still owned by the session.
        let listed = try await resumed.result("vm.list")["instances"]?.arrayValue ?? []
        #expect(listed.contains { $0["instance"]?.stringValue == instance && $0["scope"] == "connection" })
        #expect(try await resumed.result("vm.send", ["instance": .string(instance), "input": "increment"]) == .null)
        #expect(resumed.everythingRead.last { $0["method"] != nil }?["params"]?["seq"]?.intValue == Int(after.last) + 1)
    }

    @Test("a socket killed after its overflow episodes resumes right after the last seq handed to it")
    func resumedStreamStartsAfterTheLastHandedSeq() async throws {
        let vmd = try Running(["--session-grace-ms", "20000", "--max-outbound-bytes", "65536"])
        defer { vmd.stop() }
        let (owner, name, token, instance, subscription, sender) = try await Self.burstScene(vmd)
        defer { sender.close() }

        // The owner reads until the last value of the burst: everything produced so far was
        // handed to its connection, nothing is being coalesced when it is killed.
        try await Self.burst(sender, instance: instance, count: 5000)
        let handedLast = try await owner.nextMessage(timeout: Self.readTimeout, where: Self.countIs(5000, on: subscription))
        let lastHanded = try #require(handedLast["params"]?["seq"]?.intValue.map(Int64.init))
        owner.close()
        try vmd.waitForLog("session \(name) detached")
        // The replay, 5,000 values, and one coalesced count resent per overflow episode.
        let episodes = vmd.overflowEpisodes(of: subscription, before: "session \(name) detached")
        #expect(lastHanded == 5001 + Int64(episodes))
        try await Self.burst(sender, instance: instance, count: 100)
        #expect(try await Self.count(of: instance, via: sender) == 5100)

        let resumed = try vmd.session()
        defer { resumed.close() }
        #expect(try await resumed.result("session.resume", ["token": .string(token)])["subscriptions"] == [.string(subscription)])
        try await resumed.nextMessage(timeout: Self.readTimeout, where: Self.countIs(5100, on: subscription))
        // 100 values fit the detached queue: all of them, in order, right after the last seq
        // the old connection was handed.
        #expect(SeqAudit.firstAccounted(in: resumed.everythingRead, subscription: subscription) == lastHanded + 1)
        var after = SeqAudit(last: lastHanded)
        after.follow(resumed.everythingRead, subscription: subscription)
        #expect(after.delivered == Array((lastHanded + 1)...(lastHanded + 100)))
        #expect(after.uncovered.isEmpty && after.disordered.isEmpty && after.overflows.isEmpty)
        #expect(after.lastValue == 5100)
    }

    @Test("a connection the daemon drops mid-burst resumes with every seq delivered once, in order, or covered by vm.overflow")
    func burstSurvivesADaemonSideDrop() async throws {
        let vmd = try Running(["--session-grace-ms", "20000", "--max-outbound-bytes", "65536", "--max-frame-bytes", "4096"])
        defer { vmd.stop() }
        let (owner, name, token, instance, subscription, sender) = try await Self.burstScene(vmd)
        defer { sender.close() }

        try await Self.burst(sender, instance: instance, count: 5000)
        try await owner.nextMessage(timeout: Self.readTimeout) { ($0["params"]?["seq"]?.intValue ?? 0) >= 500 }
        // An over-long frame: the daemon answers, writes what is queued and closes (PROTOCOL.md §11).
        try await owner.send(String(repeating: " ", count: 8192) + "1")
        #expect(try await owner.waitForClose(timeout: Self.readTimeout))
        owner.close()
        try vmd.waitForLog("session \(name) detached")
        try await Self.burst(sender, instance: instance, count: 5000)
        #expect(try await Self.count(of: instance, via: sender) == 10000)

        let resumed = try vmd.session()
        defer { resumed.close() }
        #expect(try await resumed.result("session.resume", ["token": .string(token)])["subscriptions"] == [.string(subscription)])
        try await resumed.nextMessage(timeout: Self.readTimeout, where: Self.countIs(10000, on: subscription))

        var audit = SeqAudit()
        audit.follow(owner.everythingRead + resumed.everythingRead, subscription: subscription)
        #expect(audit.uncovered.isEmpty, "seqs neither delivered nor announced: \(audit.uncovered)")
        #expect(audit.disordered.isEmpty, "seqs twice or out of order: \(audit.disordered)")
        #expect(!audit.overflows.isEmpty)
        #expect(audit.lastValue == 10000)
    }

    @Test("a socket killed during a slow Login submit resumes and the submit's reply arrives on the new connection")
    func pendingSubmitReplyArrivesAfterResume() async throws {
        let vmd = try Running(["--session-grace-ms", "20000"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await Self.open(owner)
        let created = try await owner.result(
            "vm.create", ["type": "Login", "args": ["latencyMs": 1500], "scope": "connection", "subscribe": [:]])
        let instance = try #require(created["instance"]?.stringValue)
        let subscription = try #require(created["subscription"]?.stringValue)
        try await owner.result("vm.send", ["instance": .string(instance), "input": "email", "value": "demo@example.com"])
        try await owner.result("vm.send", ["instance": .string(instance), "input": "password", "value": "secret"])
        let submit = try await owner.request("vm.execute", ["instance": .string(instance), "action": "submit"])
        try await owner.nextMessage(timeout: Self.readTimeout) { $0["params"]?["output"] == "isLoading" && $0["params"]?["value"] == true }
        owner.close()
        try vmd.waitForLog("session \(name) detached")

        let resumed = try vmd.session()
        defer { resumed.close() }
        let reply = try await resumed.call("session.resume", ["token": .string(token)])
        // The new connection's request ids start at 1 like the old one's: the reply is told
        // apart by arriving after the resume's own.
        #expect(reply["result"]?["pending"] == [submit])
        #expect(reply["result"]?["subscriptions"] == [.string(subscription)])
        let answer = try await resumed.response(to: submit, timeout: Self.readTimeout)
        #expect(answer["result"]?["value"] != nil, "submit answered \(answer.encodedString())")
        #expect(resumed.notificationsRead("vm.output").contains { $0["params"]?["output"] == "loginSuccess" })
        #expect(try await resumed.result("vm.get", ["instance": .string(instance), "output": "isLoading"])["value"] == false)
        var audit = SeqAudit()
        audit.follow(owner.everythingRead + resumed.everythingRead, subscription: subscription)
        #expect(audit.uncovered.isEmpty && audit.disordered.isEmpty)
    }

    @Test("a submit that completes while the session is detached has its reply queued for the resume")
    func submitCompletedWhileDetachedIsQueued() async throws {
        let vmd = try Running(["--session-grace-ms", "20000"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await Self.open(owner)
        let created = try await owner.result(
            "vm.create", ["type": "Login", "args": ["latencyMs": 300], "scope": "connection", "subscribe": [:]])
        let instance = try #require(created["instance"]?.stringValue)
        let watcher = try vmd.session()
        defer { watcher.close() }
        try await watcher.result("vm.subscribe", ["instance": .string(instance), "outputs": ["isLoading"], "replay": false])
        try await owner.result("vm.send", ["instance": .string(instance), "input": "email", "value": "demo@example.com"])
        try await owner.result("vm.send", ["instance": .string(instance), "input": "password", "value": "secret"])
        let submit = try await owner.request("vm.execute", ["instance": .string(instance), "action": "submit"])
        try await owner.nextMessage(timeout: Self.readTimeout) { $0["params"]?["output"] == "isLoading" && $0["params"]?["value"] == true }
        owner.close()
        try vmd.waitForLog("session \(name) detached")
        // The action finishes while nobody holds the session.
        try await watcher.nextMessage(timeout: Self.readTimeout) { $0["params"]?["output"] == "isLoading" && $0["params"]?["value"] == false }

        let resumed = try vmd.session()
        defer { resumed.close() }
        let reply = try await resumed.result("session.resume", ["token": .string(token)])
        #expect(reply["pending"] == [])
        let answer = try await resumed.response(to: submit, timeout: Self.readTimeout)
        #expect(answer["result"]?["value"] != nil, "submit answered \(answer.encodedString())")
        let outputs = resumed.notificationsRead("vm.output").compactMap { $0["params"]?["output"]?.stringValue }
        #expect(outputs.contains("loginSuccess") && outputs.contains("isLoading"))
    }

    @Test("resuming a session still attached elsewhere closes the old connection and moves the session")
    func resumeTakesOverAnAttachedSession() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let first = try vmd.session()
        defer { first.close() }
        let (_, token) = try await Self.open(first)
        let created = try await first.result("vm.create", ["type": "Counter", "scope": "connection", "subscribe": [:]])
        let instance = try #require(created["instance"]?.stringValue)
        let second = try vmd.session()
        defer { second.close() }
        #expect(try await second.result("session.resume", ["token": .string(token)])["subscriptions"] == [created["subscription"] ?? .null])
        #expect(try await first.waitForClose())
        try await second.result("vm.send", ["instance": .string(instance), "input": "increment"])
        #expect(second.notificationsRead("vm.output").last?["params"]?["value"] == 1)
    }

    @Test("values the lost connection took with it: reported by vm.overflow and the state resent when the resume says what was received")
    func lostTailIsReportedAndResent() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let (owner, name, token, instance, subscription, sender) = try await Self.burstScene(vmd)
        defer { sender.close() }
        // 100 values handed to the owner's connection (seqs 2...101) after the replay (seq 1).
        try await Self.burst(sender, instance: instance, count: 100)
        #expect(try await Self.count(of: instance, via: sender) == 100)
        owner.close()
        try vmd.waitForLog("session \(name) detached from")

        // Without `received` nothing is added: the next seq is the next value's.
        let plain = try vmd.session()
        #expect(try await plain.result("session.resume", ["token": .string(token)])["subscriptions"] == [.string(subscription)])
        try await sender.result("vm.send", ["instance": .string(instance), "input": "increment"])
        let next = try await plain.nextMessage(timeout: Self.readTimeout)
        #expect(next["method"] == "vm.output" && next["params"]?["seq"] == 102 && next["params"]?["value"] == 101)
        #expect(next["params"]?["replay"] == nil)
        plain.close()
        try vmd.waitForLog("session \(name) detached from", count: 2)

        // The client says it received only seq 1: 2...102 went with the connections; the
        // current value follows as a replay with the next seq.
        let resumed = try vmd.session()
        defer { resumed.close() }
        let params: JSONValue = ["token": .string(token), "received": .object(JSONObject([(subscription, .integer(1))]))]
        #expect(try await resumed.result("session.resume", params)["subscriptions"] == [.string(subscription)])
        let overflow = try await resumed.nextMessage(timeout: Self.readTimeout)
        #expect(overflow["method"] == "vm.overflow")
        #expect(overflow["params"]?["lost"] == ["from": 2, "to": 102])
        let resent = try await resumed.nextMessage(timeout: Self.readTimeout)
        #expect(resent["method"] == "vm.output" && resent["params"]?["seq"] == 103 && resent["params"]?["value"] == 101)
        #expect(resent["params"]?["replay"] == true)
        // A negative seq is refused (invalidParams), and nothing changes.
        let bad = try vmd.session()
        defer { bad.close() }
        let negative: JSONValue = ["token": .string(token), "received": .object(JSONObject([(subscription, .integer(-1))]))]
        #expect(try await bad.failure("session.resume", negative)["code"] == -32602)
    }

    @Test("resume is refused with invalidRequest on a connection that already owns something, and in a batch")
    func resumeNeedsAFreshConnection() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let owner = try vmd.session()
        defer { owner.close() }
        let (_, token) = try await Self.open(owner)
        let busy = try vmd.session()
        defer { busy.close() }
        try await busy.result("vm.create", ["type": "Counter", "scope": "connection"])
        #expect(try await busy.call("session.resume", ["token": .string(token)]).errorCodeAndName == (-32600, "invalidRequest"))
        let batched = try vmd.session()
        defer { batched.close() }
        try await batched.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"session.resume","params":{"token":""# + token + #""}}]"#)
        let reply = try await batched.nextMessage()
        let item = try #require(reply[0])
        #expect(item.errorCodeAndName == (-32600, "invalidRequest"))
        // Nothing changed: the owner still holds its session.
        #expect(try await owner.result("session.open")["token"]?.stringValue == token)
    }

    // MARK: After the grace, caps, close, other users

    @Test("past the grace the session is gone: unknownSession, and its instances closed with ownerDisconnected")
    func expiryReleasesLikeAClosedConnection() async throws {
        let vmd = try Running(["--session-grace-ms", "300"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await Self.open(owner)
        let instance = try await Self.createCounter(owner)
        let watcher = try vmd.session()
        defer { watcher.close() }
        let watched = try await watcher.result("vm.subscribe", ["instance": .string(instance)])["subscription"]
        owner.close()
        let closed = try await watcher.nextMessage(timeout: Self.readTimeout) { $0["method"] == "vm.closed" }
        #expect(closed["params"]?["reason"] == "ownerDisconnected" && closed["params"]?["subscription"] == watched)
        #expect(vmd.process.log.contains("session \(name) expired: no resume within 300 ms"))
        let late = try vmd.session()
        defer { late.close() }
        #expect(try await late.call("session.resume", ["token": .string(token)]).errorCodeAndName == (-31016, "unknownSession"))
        #expect(try await late.call("session.resume", ["token": "0123456789abcdef0123456789abcdef"]).errorCodeAndName
            == (-31016, "unknownSession"))
        #expect(try await late.result("vm.list")["instances"] == [])
    }

    @Test("--max-detached-sessions expires the oldest detached session when one more detaches")
    func capExpiresTheOldest() async throws {
        let vmd = try Running(["--max-detached-sessions", "2"])
        defer { vmd.stop() }
        let watcher = try vmd.session()
        defer { watcher.close() }
        var tokens: [String] = []
        var instances: [String] = []
        for _ in 0..<3 {
            let owner = try vmd.session()
            let (name, token) = try await Self.open(owner)
            let instance = try await Self.createCounter(owner)
            try await watcher.result("vm.subscribe", ["instance": .string(instance)])
            owner.close()
            try vmd.waitForLog("session \(name) detached")
            tokens.append(token)
            instances.append(instance)
        }
        let closed = try await watcher.nextMessage(timeout: Self.readTimeout) { $0["method"] == "vm.closed" }
        #expect(closed["params"]?["instance"]?.stringValue == instances[0] && closed["params"]?["reason"] == "ownerDisconnected")
        #expect(try await vmd.resumeOnNewConnection(tokens[0]).errorCodeAndName == (-31016, "unknownSession"))
        for token in tokens.dropFirst() {
            let back = try vmd.session()
            defer { back.close() }
            #expect(try await back.result("session.resume", ["token": .string(token)])["session"] != nil)
        }
    }

    @Test("under --slow-client disconnect a detached session whose queue fills up expires")
    func fullQueueExpiresUnderDisconnectPolicy() async throws {
        let vmd = try Running(["--slow-client", "disconnect", "--max-outbound-bytes", "65536"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await Self.open(owner)
        let instance = try #require(
            try await owner.result("vm.create", ["type": "Counter", "scope": "connection", "subscribe": [:]])["instance"]?.stringValue)
        owner.close()
        try vmd.waitForLog("session \(name) detached")
        let sender = try vmd.session()
        defer { sender.close() }
        try await Self.burst(sender, instance: instance, count: 2000)
        try vmd.waitForLog("session \(name) expired: its queue is full")
        #expect(try await sender.call("session.resume", ["token": .string(token)]).errorCodeAndName == (-31016, "unknownSession"))
    }

    @Test("after session.close the connection behaves as today: closing it releases everything at once")
    func closeEndsResumability() async throws {
        let vmd = try Running(["--session-grace-ms", "60000"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (_, token) = try await Self.open(owner)
        let instance = try await Self.createCounter(owner)
        #expect(try await owner.result("session.close") == [:])
        #expect(try await owner.result("session.close") == [:])
        // Still served as before on the same connection.
        #expect(try await owner.result("vm.send", ["instance": .string(instance), "input": "increment"]) == .null)
        // Released at once, not after 60 s.
        #expect(try await vmd.closeWatched(owner, instance: instance)["params"]?["reason"] == "ownerDisconnected")
        #expect(try await vmd.resumeOnNewConnection(token).errorCodeAndName == (-31016, "unknownSession"))
    }

    @Test("with --session-grace-ms 0 session.open answers graceMs 0 and a closed connection is released at once")
    func zeroGraceDisablesResuming() async throws {
        let vmd = try Running(["--session-grace-ms", "0"])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let opened = try await owner.result("session.open", ["graceMs": 5000])
        #expect(opened["graceMs"] == 0)
        let token = try #require(opened["token"]?.stringValue)
        let instance = try await Self.createCounter(owner)
        #expect(try await vmd.closeWatched(owner, instance: instance)["params"]?["reason"] == "ownerDisconnected")
        #expect(try await vmd.resumeOnNewConnection(token).errorCodeAndName == (-31016, "unknownSession"))
    }

    @Test("the token appears neither in the daemon's log nor in what a monitor sees")
    func tokenIsNeverLogged() async throws {
        let vmd = try Running([])
        defer { vmd.stop() }
        let monitor = try vmd.session()
        defer { monitor.close() }
        try await monitor.result("daemon.monitor")
        let owner = try vmd.session()
        let (name, token) = try await Self.open(owner)
        owner.close()
        try vmd.waitForLog("session \(name) detached")
        let resumed = try vmd.session()
        defer { resumed.close() }
        try await resumed.result("session.resume", ["token": .string(token)])
        try await resumed.result("session.close")
        // A stale token is still hidden from monitors.
        let stale = try vmd.session()
        defer { stale.close() }
        try await stale.call("session.resume", ["token": .string(token)])
        try await monitor.nextMessage(timeout: Self.readTimeout) { $0["params"]?["message"]?["error"]?["data"]?["name"] == "unknownSession" }
        let seen = monitor.notificationsRead("daemon.message").map { $0.encodedString() }.joined(separator: "\n")
        #expect(seen.contains(#""token":"<redacted>""#))
        #expect(!seen.contains(token))
        try vmd.waitForLog("session \(name) closed")
        #expect(!vmd.process.log.contains(token))
    }

    @Test("a token used by a peer of another uid is refused with unknownSession and the session is untouched",
          .enabled(if: CurrentProcess.uid == 0, "needs root to run a client as another user (uid 65534)"))
    func otherUIDIsRefused() async throws {
        let name = "vmdt-session-\(CurrentProcess.pid)"
        let vmd = try Running(["--allow-uid", "65534"], abstractName: name)
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (session, token) = try await Self.open(owner)
        try await owner.result("vm.create", ["type": "Counter", "scope": "connection"])
        owner.close()
        try vmd.waitForLog("session \(session) detached")

        let input = try FileDescriptor.open(vmd.directory.file("input"), [.writeOnly, .create, .truncate])
        try input.writeAll(Array((#"{"jsonrpc":"2.0","id":1,"method":"session.resume","params":{"token":""# + token + #""}}"#).utf8) + [10])
        try input.close()
        let thief = try ChildProcess.spawn(
            "setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "socat", "-t", "2", "-",
                                   "ABSTRACT-CONNECT:" + name],
            searchPath: true, standardInput: vmd.directory.file("input"), outputPath: vmd.directory.file("output"))
        _ = try thief.wait()
        let output = String(decoding: try FileSystem.readFile(vmd.directory.file("output")), as: UTF8.self)
        let reply = try JSONValue(parsing: output.split(separator: "\n").first.map(String.init) ?? "")
        #expect(reply.errorCodeAndName == (-31016, "unknownSession"))
        #expect(vmd.process.log.contains("uid=65534"))

        let back = try vmd.session()
        defer { back.close() }
        #expect(try await back.result("session.resume", ["token": .string(token)])["session"]?.stringValue == session)
    }
}
