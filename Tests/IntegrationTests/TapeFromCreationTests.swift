import JSONCore
import Posix
import Testing
import VMTestSupport

/// Tapes recorded by the daemon from an instance's creation (`vm.create {record: true}`,
/// `vmctl tape`), replayed by `vmctl replay` at their recorded pace, against the real vmd.
@Suite("Tapes from creation", .offTheCooperativePool)
struct TapeFromCreationTests {
    /// Polls `vmctl get INSTANCE OUTPUT` until it prints `value` (5 s at most).
    private static func waitFor(_ fixture: VMCtlFixture, _ instance: String, _ output: String, _ value: String) async throws {
        for _ in 0..<100 {
            if try fixture.vmctl.run(["get", instance, output]).output == value + "\n" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(instance).\(output) never became \(value)")
    }

    /// `vmctl tape INSTANCE -o FILE` into the fixture's directory: the path and the parsed lines.
    private static func tape(_ fixture: VMCtlFixture, _ instance: String) throws -> (path: String, lines: [JSONValue]) {
        let path = fixture.directory.path + "/\(instance).tape"
        let written = try fixture.vmctl.run(["tape", instance, "-o", path])
        #expect(written.status == 0, "\(written)")
        let lines = try VMCtlRunner.read(path).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        return (path, lines)
    }

    /// Replays `path` with `arguments`, waiting 20 s beyond the tape's own length: a replay
    /// keeps the recorded pace, and a recording made while the test process was busy (its
    /// awaits resumed late) is longer than the test's own pauses.
    private static func replay(_ fixture: VMCtlFixture, _ path: String, _ arguments: String...) throws -> VMCtlRunner.Outcome {
        let recordedMs = VMCtlRunner.read(path).split(separator: "\n")
            .compactMap { try? JSONValue(parsing: String($0)) }
            .compactMap { $0["t"]?.intValue }.max() ?? 0
        return try fixture.vmctl.run(["replay", path] + arguments, timeout: .seconds(20) + .milliseconds(recordedMs))
    }

    private static func elapsedSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test("Follow, which loads at creation, is taped from its creation and replays at the recorded pace")
    func followFromCreation() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Follow", "--id", "f1", "--arg", "latencyMs=200", "--record"]).status == 0)
        try await Self.waitFor(fixture, "f1", "isLoading", "false")
        #expect(try fixture.vmctl.run(["exec", "f1", "toggle"]).output == "false\n")
        let (path, lines) = try Self.tape(fixture, "f1")
        #expect(lines.first == ["tape": 2, "type": "Follow", "args": ["latencyMs": 200], "instance": "f1", "fromCreation": true])
        // The load at creation is on the tape: the values at t 0, then the service's answer.
        #expect(lines[1] == ["event": "output", "t": 0, "output": "isFollowing", "value": false, "replay": true])
        #expect(lines[2] == ["event": "output", "t": 0, "output": "isLoading", "value": true, "replay": true])
        #expect(lines[3]["output"] == "isFollowing" && lines[3]["value"] == true)
        #expect((lines[3]["t"]?.intValue ?? 0) >= 190, "the load's answer came after the service's 200 ms: \(lines[3])")
        let action = lines.first { $0["event"] == "action" }
        #expect(action?["outcome"] == ["result": false])
        #expect(action?["connection"]?.intValue != nil)

        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 0, "\(replayed)")
        // Back to back, the toggle meets the load still running: the first divergence.
        let rushed = try Self.replay(fixture, path, "--no-wait")
        #expect(rushed.status == 1, "\(rushed)")
        #expect(rushed.error.contains("step 1 (line 6): action toggle had another outcome"), "\(rushed)")
    }

    @Test("an action that timed out is taped with its timeoutMs and outcome, and replays the same way")
    func actionTimeout() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Follow", "--id", "f3", "--arg", "latencyMs=300", "--record"]).status == 0)
        try await Self.waitFor(fixture, "f3", "isLoading", "false")
        let timedOut = try fixture.vmctl.run(["exec", "f3", "toggle", "--timeout-ms", "100"])
        #expect(timedOut.error.contains("(actionTimedOut)"), "\(timedOut)")
        try await Self.waitFor(fixture, "f3", "isLoading", "false")
        let (path, lines) = try Self.tape(fixture, "f3")
        let action = lines.first { $0["event"] == "action" }
        #expect(action?["timeoutMs"] == 100)
        #expect(action?["outcome"]?["error"]?["data"]?["name"] == "actionTimedOut", "\(String(describing: action))")
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 0, "\(replayed)")
    }

    @Test("a changed logic (Follow starting unfollowed) fails the replay at the first divergence")
    func mutationDiverges() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Follow", "--id", "f2", "--arg", "latencyMs=50", "--record"]).status == 0)
        try await Self.waitFor(fixture, "f2", "isLoading", "false")
        let (path, _) = try Self.tape(fixture, "f2")
        let mutated = VMCtlRunner.read(path).replacing(#""args":{"latencyMs":50}"#, with: #""args":{"latencyMs":50,"initial":false}"#)
        try FileSystem.writeText(mutated, to: path)
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 1, "\(replayed)")
        #expect(replayed.error.contains(#"output "isFollowing" differs at value #2"#), "\(replayed)")
        #expect(replayed.error.contains("after:    the instance's creation"), "\(replayed)")
    }

    @Test("Login with a slow service: typed, submitted, taped and replayed green")
    func loginWithLatency() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Login", "--id", "l1", "--arg", "latencyMs=150", "--record"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "l1", "email", "demo@example.com"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "l1", "password", "secret"]).status == 0)
        #expect(try fixture.vmctl.run(["exec", "l1", "submit"]).status == 0)
        let (path, lines) = try Self.tape(fixture, "l1")
        let steps = lines.filter { $0["event"] == "input" || $0["event"] == "action" }
        #expect(steps.map { $0["input"] ?? $0["action"] ?? .null } == ["email", "password", "submit"])
        #expect(lines.contains { $0["output"] == "loginSuccess" && $0["value"] == "demo@example.com" })
        // The password is a secret input: taped redacted, and put back as the README says.
        #expect(steps.contains { $0["input"] == "password" && $0["value"] == "<redacted>" })
        let restored = VMCtlRunner.read(path).replacing(#""<redacted>""#, with: #""secret""#)
        try FileSystem.writeText(restored, to: path)
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 0, "\(replayed)")
    }

    @Test("TodoList edits are taped with full values and replay green")
    func todoList() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "TodoList", "--id", "t1", "--record"]).status == 0)
        for step in [["send", "t1", "add", "milk"], ["send", "t1", "add", "eggs"], ["send", "t1", "toggle", "1"],
                     ["send", "t1", "rename", #"{"id":2,"title":"bread"}"#], ["send", "t1", "clearDone"]] {
            let sent = try fixture.vmctl.run(step)
            #expect(sent.status == 0, "\(sent)")
        }
        let (path, lines) = try Self.tape(fixture, "t1")
        #expect(lines.count(where: { $0["event"] == "input" }) == 5)
        #expect(lines.last?["output"] == "remaining" || lines.last?["output"] == "items")
        let replayed = try Self.replay(fixture, path, "--speed", "10")
        #expect(replayed.status == 0, "\(replayed)")
    }

    /// Records a SendList from creation: two recipients, a message, a send that uploads (the
    /// store's id) and opens a SendReceipt child (its instance id), announced on `navigate`.
    private static func recordSendList(_ fixture: VMCtlFixture, _ instance: String) throws -> (path: String, lines: [JSONValue]) {
        #expect(try fixture.vmctl.run(["create", "SendList", "--id", instance, "--arg", "uploadMs=200", "--record"]).status == 0)
        for step in [["send", instance, "addRecipient", "ada@example.com"], ["send", instance, "addRecipient", "bob@example.com"],
                     ["send", instance, "message", "Hello"], ["exec", instance, "send", "--no-progress"]] {
            let sent = try fixture.vmctl.run(step)
            #expect(sent.status == 0, "\(sent)")
        }
        return try tape(fixture, instance)
    }

    @Test("SendList (an upload, a child scene) replays green: the ids the replay makes up are matched by place")
    func sendListIdsMatched() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let (path, lines) = try Self.recordSendList(fixture, "s1")
        #expect(lines.first?["tape"] == 3)
        #expect(lines.first?["ids"] == ["send": ["/instance", "/uploadId"], "navigate": ["/instance"]], "\(lines.first ?? .null)")
        let action = lines.first { $0["event"] == "action" }
        let recordedChild = action?["outcome"]?["result"]?["instance"]?.stringValue ?? ""
        #expect(action?["outcome"]?["result"]?["uploadId"]?.intValue != nil, "\(String(describing: action))")
        #expect(lines.contains { $0["output"] == "navigate" && $0["value"]?["instance"]?.stringValue == recordedChild })
        // Each replay uploads again (the store's next ids) and opens another receipt: still the same session.
        for _ in 0..<2 {
            let replayed = try Self.replay(fixture, path)
            #expect(replayed.status == 0, "\(replayed)")
        }
        let listed = try fixture.vmctl.run(["--json", "list"])
        #expect(listed.output.components(separatedBy: #""type":"SendReceipt""#).count - 1 == 1, "the replays' receipts went with their connections: \(listed.output)")
    }

    @Test("a SendList replayed against a store that cannot write fails at the send")
    func sendListWithAnotherStore() throws {
        let recording = try VMCtlFixture()
        defer { recording.tearDown() }
        let (path, _) = try Self.recordSendList(recording, "s2")
        // Another daemon whose SendList store cannot open its file (its state directory is a file).
        let refusing = try VMCtlFixture(daemonArguments: ["--state-dir", path])
        defer { refusing.tearDown() }
        let replayed = try refusing.vmctl.run(["replay", path], timeout: .seconds(30))
        #expect(replayed.status == 1, "\(replayed)")
        #expect(replayed.error.contains("step 4 (line"), "\(replayed)")
        #expect(replayed.error.contains("action send had another outcome") || replayed.error.contains("output \"isSending\""), "\(replayed)")
    }

    @Test("a send that announces another scene than it returns fails at the navigate value")
    func sendListInconsistentIds() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let (path, lines) = try Self.recordSendList(fixture, "s3")
        let child = lines.first { $0["event"] == "action" }?["outcome"]?["result"]?["instance"]?.stringValue ?? "?"
        // The tape now says the scene announced was another one than the one returned.
        let text = VMCtlRunner.read(path)
        let navigate = text.split(separator: "\n").first { $0.contains(#""output":"navigate""#) }.map(String.init) ?? ""
        try FileSystem.writeText(text.replacing(navigate, with: navigate.replacing(child, with: "sendreceipt-99")), to: path)
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 1, "\(replayed)")
        #expect(replayed.error.contains(#"output "navigate" differs at value #1"#), "\(replayed)")
    }

    @Test("search as you type with a slow service, the user waiting for results: replays green at its pace, not rushed")
    func searchAsYouType() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Search", "--id", "q1", "--arg", "latencyMs=400", "--record"]).status == 0)
        // Two keystrokes (one search, when they come within the 250 ms debounce), the results
        // awaited, a third.
        #expect(try fixture.vmctl.run(["send", "q1", "query", "b"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "q1", "query", "bl"]).status == 0)
        try await Self.waitFor(fixture, "q1", "results", #"["blackberry","blackcurrant","blueberry"]"#)
        try await Self.waitFor(fixture, "q1", "isSearching", "false")
        #expect(try fixture.vmctl.run(["send", "q1", "query", "bla"]).status == 0)
        try await Self.waitFor(fixture, "q1", "results", #"["blackberry","blackcurrant"]"#)
        try await Self.waitFor(fixture, "q1", "isSearching", "false")
        let (path, lines) = try Self.tape(fixture, "q1")
        #expect(lines.contains { $0["output"] == "results" && $0["value"] == ["blackberry", "blackcurrant"] }, "\(lines)")
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 0, "\(replayed)")
        // Back to back, the debounce keeps only the last query: one search, other results.
        let rushed = try Self.replay(fixture, path, "--no-wait")
        #expect(rushed.status == 1, "\(rushed)")
        #expect(rushed.error.contains(#"output "results" differs at value #2"#), "\(rushed)")
    }

    @Test("a 1 s pause on the tape is a 1 s pause in the replay, none with --no-wait")
    func pauseIsHonoured() async throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--record"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "increment", "1"]).status == 0)
        try await Task.sleep(for: .seconds(1))
        #expect(try fixture.vmctl.run(["send", "c1", "increment", "2"]).status == 0)
        let (path, lines) = try Self.tape(fixture, "c1")
        let times = lines.filter { $0["event"] == "input" }.compactMap { $0["t"]?.intValue }
        #expect(times.count == 2 && times[1] - times[0] >= 1000, "\(times)")
        let paced = try Self.elapsedSeconds {
            let replayed = try Self.replay(fixture, path, "--timeout", "0.2")
            #expect(replayed.status == 0, "\(replayed)")
        }
        #expect(paced >= 1.0, "the replay took \(paced) s")
        let rushed = try Self.elapsedSeconds {
            let replayed = try Self.replay(fixture, path, "--no-wait", "--timeout", "0.2")
            #expect(replayed.status == 0, "\(replayed)")
        }
        #expect(rushed < paced - 0.5, "--no-wait took \(rushed) s, the paced replay \(paced) s")
    }

    @Test("an instance created without record has no tape: notRecording, exit 1, and it keeps running")
    func notRecording() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "c1"]).status == 0)
        let refused = try fixture.vmctl.run(["tape", "c1"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.error.contains("(notRecording)") && refused.error.contains("record: true"), "\(refused)")
        let raw = try fixture.vmctl.run(["--json", "call", "vm.tape", #"{"instance":"c1"}"#])
        #expect(raw.error.contains("-31018") || raw.output.contains("-31018") || raw.error.contains("notRecording"), "\(raw)")
        #expect(try fixture.vmctl.run(["get", "c1", "count"]).output == "0\n")
    }

    @Test("vmd --record-all records every instance")
    func recordAll() throws {
        let fixture = try VMCtlFixture(daemonArguments: ["--record-all"])
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=3"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "increment"]).status == 0)
        let (_, lines) = try Self.tape(fixture, "c1")
        #expect(lines.first?["args"] == ["start": 3])
        #expect(lines.filter { $0["event"] == "output" }.map { $0["value"] ?? .null } == [3, 4])
        #expect(lines.contains { $0["event"] == "input" && $0["input"] == "increment" && $0["value"] == nil })
    }

    @Test("past 1 MiB the oldest events go: the header says fromCreation false and replay refuses it")
    func boundDropsTheOldest() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "TextField", "--id", "x1", "--record"]).status == 0)
        // Each send tapes its ~200 KB value twice (the input, the text output): 4 sends pass 1 MiB.
        let big = String(repeating: "a", count: 200_000)
        let file = fixture.directory.path + "/big.json"
        for index in 0..<4 {
            try FileSystem.writeText(#"{"instance":"x1","input":"type","value":"\#(big)\#(index)"}"#, to: file)
            let sent = try fixture.vmctl.run(["call", "vm.send", "-"], input: VMCtlRunner.read(file))
            #expect(sent.status == 0, "\(sent)")
        }
        let path = fixture.directory.path + "/x1.tape"
        let written = try fixture.vmctl.run(["tape", "x1", "-o", path])
        #expect(written.status == 0, "\(written)")
        #expect(written.error.contains("no longer starts at the creation"), "\(written)")
        let text = VMCtlRunner.read(path)
        #expect(text.utf8.count <= (1 << 20) + 4096, "\(text.utf8.count) bytes")
        let header = try JSONValue(parsing: String(text.prefix { $0 != "\n" }))
        #expect(header["fromCreation"] == false)
        #expect((header["dropped"]?.intValue ?? 0) > 0, "\(header)")
        let replayed = try Self.replay(fixture, path)
        #expect(replayed.status == 2, "\(replayed)")
        #expect(replayed.error.contains("no longer starts at the instance's creation"), "\(replayed)")
    }
}
