import JSONCore
import Posix
import Testing
import VMTestSupport

/// What monitors, and the tapes recorded from them, never show (PROTOCOL.md §18, "Secrecy";
/// issue 31, item 3), over the real socket with the real vmd.
@Suite("Monitors never show tokens or secret inputs", .offTheCooperativePool)
struct MonitorSecrecyTests {
    @Test("a session token inside frames that do not parse never reaches a monitor")
    func tokenInUnparseableFrames() async throws {
        let vmd = try SessionResumeTests.Running([])
        defer { vmd.stop() }
        let monitor = try vmd.session()
        defer { monitor.close() }
        try await monitor.result("daemon.monitor")
        let client = try SocketClient.connect(path: vmd.path)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"session.open"}"#)
        let token = try #require(try client.readMessage()["result"]?["token"]?.stringValue)
        let resume = #"{"jsonrpc":"2.0","id":2,"method":"session.resume","params":{"token":""# + token + #""}}"#
        let frames: [[UInt8]] = [
            Array((resume + "}").utf8),                                                    // an extra }
            Array(resume.replacing(#""}}"#, with: #"",}}"#).utf8),                         // a trailing comma
            Array(resume.utf8) + [0xFF],                                                   // bad UTF-8 after it
            Array((String(repeating: "[", count: 70) + resume + String(repeating: "]", count: 70)).utf8),  // too deep
            Array(#"{"token" : ""#.utf8) + Array(token.uppercased().utf8) + Array(#"", oops}"#.utf8),   // spaced, upper case
        ]
        for frame in frames {
            try client.write(frame + [UInt8(ascii: "\n")])
            #expect(try client.readMessage()["error"] != nil)
        }
        // Every frame in and every error out, as the monitor saw them.
        var seen: [JSONValue] = []
        var framesIn = 0, errorsOut = 0
        while framesIn < 1 + frames.count || errorsOut < frames.count {
            let message = try await monitor.nextMessage(timeout: .seconds(20))
            seen.append(message)
            if message["params"]?["direction"] == "in" { framesIn += 1 }
            if message["params"]?["direction"] == "out", message["params"]?["message"]?["error"] != nil { errorsOut += 1 }
        }
        let shown = seen.map { $0.encodedString() }.joined(separator: "\n")
        #expect(!shown.contains(token))
        #expect(!shown.contains(token.uppercased()))
        #expect(shown.components(separatedBy: "<redacted>").count > frames.count)
    }

    @Test("a secret input's value reads <redacted> to monitors, and vm.types marks it writeOnly")
    func secretInputRedacted() async throws {
        let vmd = try SessionResumeTests.Running([])
        defer { vmd.stop() }
        let monitor = try vmd.session()
        defer { monitor.close() }
        let client = try vmd.session()
        defer { client.close() }
        let types = try await client.result("vm.types", ["type": "Login"])
        let inputs = try #require(types["types"]?[0]?["inputs"]?.arrayValue)
        #expect(inputs.first { $0["name"] == "password" }?["schema"]?["writeOnly"] == true)
        #expect(inputs.first { $0["name"] == "email" }?["schema"]?["writeOnly"] == nil)
        let instance = try #require(try await client.result("vm.create", ["type": "Login"])["instance"]?.stringValue)
        try await monitor.result("daemon.monitor")
        try await client.result("vm.send", ["instance": .string(instance), "input": "email", "value": "demo@example.com"])
        try await client.result("vm.send", ["instance": .string(instance), "input": "password", "value": "hunter2hunter2"])
        try await client.send(#"[{"jsonrpc":"2.0","id":90,"method":"vm.send","params":{"instance":""# + instance
            + #"","input":"password","value":"hunter3hunter3"}}]"#)
        _ = try await client.nextMessage()
        let seen = try await monitor.takeThrough(timeout: .seconds(20)) { message in
            message["params"]?["message"]?[0]?["id"] == 90 && message["params"]?["direction"] == "out"
        }
        let shown = seen.map { $0.encodedString() }.joined(separator: "\n")
        #expect(!shown.contains("hunter2") && !shown.contains("hunter3"))
        #expect(shown.contains("demo@example.com"))
        let sends = seen.compactMap { $0["params"]?["message"] }.filter { $0["params"]?["input"] == "password" || $0[0]?["params"]?["input"] == "password" }
        #expect(sends.count == 2)
        #expect(sends.allSatisfy { ($0["params"] ?? $0[0]?["params"])?["value"] == "<redacted>" })
    }

    @Test("vmctl record stores a secret input's value as <redacted>")
    func recordedTapeRedactsSecrets() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Login", "--id", "login"]).status == 0)
        let recording = try fixture.vmctl.start(["record", "login", "--count", "4"])
        #expect(recording.waitForLines(3), "no header and current values: \(recording.outputSoFar)")
        #expect(try fixture.vmctl.run(["send", "login", "email", "demo@example.com"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "login", "password", "hunter2hunter2"]).status == 0)
        let recorded = try recording.wait()
        #expect(recorded.status == 0, "\(recorded)")
        #expect(!recorded.output.contains("hunter2"))
        let password = try recorded.jsonLines().first { $0["input"] == "password" }
        #expect(password?["value"] == "<redacted>", "\(recorded)")
    }
}
