import JSONCore
import Posix
import Testing
import VMTestSupport

/// `vmctl record` and `vmctl replay` against the real vmd: a recorded session replays green,
/// a changed expectation fails with the first divergence, bad tapes exit 2, `--update`
/// accepts new behaviour, and the tapes committed under Tests/Tapes replay green.
@Suite("vmctl record and replay", .offTheCooperativePool)
struct VMCtlTapeTests {
    /// Tests/Tapes in this checkout.
    static let tapesDirectory: String = {
        let tests = FileSystem.parentDirectory(of: FileSystem.parentDirectory(of: #filePath) ?? "") ?? ""
        return tests + "/Tapes"
    }()

    /// Writes a tape file into the fixture's scratch directory and returns its path.
    static func scratchTape(_ fixture: VMCtlFixture, _ name: String, _ text: String) throws -> String {
        let path = fixture.directory.path + "/" + name
        try FileSystem.writeText(text, to: path)
        return path
    }

    @Test("record writes a Counter session line by line, and replay matches it")
    func recordThenReplay() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=5"]).status == 0)
        let recording = try fixture.vmctl.start(["record", "c1", "--args", #"{"start":5}"#])
        #expect(recording.waitForLines(2), "no header and current value: \(recording.outputSoFar)")
        for step in [["send", "c1", "increment", "2"], ["send", "c1", "set", "40"], ["exec", "c1", "reset"]] {
            #expect(try fixture.vmctl.run(step).status == 0)
        }
        #expect(try fixture.vmctl.run(["destroy", "c1"]).status == 0)
        let recorded = try recording.wait()
        #expect(recorded.status == 0, "\(recorded)")
        let lines = try recorded.jsonLines()
        #expect(lines.count == 8, "\(recorded)")
        #expect(lines.first?["tape"] == 2)
        #expect(lines.first?["fromCreation"] == false)
        #expect(lines.first?["type"] == "Counter")
        #expect(lines.first?["args"] == ["start": 5])
        let recordedAt = Array(lines.first?["recordedAt"]?.stringValue ?? "")
        #expect(recordedAt.count == 20 && recordedAt[10] == "T" && recordedAt[19] == "Z" && recordedAt[0] == "2",
                "recordedAt is not RFC 3339 UTC: \(String(recordedAt))")
        let events = lines.dropFirst().map { line -> String in
            let name = line["input"] ?? line["action"] ?? line["output"] ?? .null
            return "\(line["event"]?.stringValue ?? "?") \(name.stringValue ?? "?") \(line["value"]?.encodedString() ?? "-")"
        }
        #expect(events == [
            "output count 5", "input increment 2", "output count 7", "input set 40", "output count 40",
            "action reset -", "output count 0",
        ])
        #expect(lines[6]["outcome"] == ["result": 0])
        #expect(lines[2]["connection"]?.intValue != nil)

        let path = try Self.scratchTape(fixture, "counter.tape", recorded.output)
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.output.contains("3 steps replayed, every output matched"))
        #expect(try fixture.vmctl.run(["list"]).output.hasPrefix("No instances."), "the replayed instance outlived vmctl")
    }

    @Test("record keeps only the recorded instance's events, from every connection, and stops at --count")
    func recordFilters() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "c1"]).status == 0)
        #expect(try fixture.vmctl.run(["create", "Counter", "--id", "other"]).status == 0)
        let recording = try fixture.vmctl.start(["record", "c1", "--count", "4"])
        #expect(recording.waitForLines(2), "no header and current value: \(recording.outputSoFar)")
        #expect(try fixture.vmctl.run(["send", "other", "increment", "5"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "increment", "2"]).status == 0)
        #expect(try fixture.vmctl.run(["exec", "other", "reset"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "decrement"]).status == 0)
        let recorded = try recording.wait()
        #expect(recorded.status == 0, "\(recorded)")
        let lines = try recorded.jsonLines()
        #expect(lines.map { $0.encodedString().contains("other") } == [false, false, false, false, false], "\(recorded)")
        #expect(lines.dropFirst().map { $0["event"]?.stringValue ?? "?" } == ["output", "input", "output", "input"])
        #expect(lines.last?["input"] == "decrement")
        #expect(lines.last?["value"] == nil)
    }

    @Test("the tapes committed under Tests/Tapes replay green", arguments: ["counter.tape", "login.tape", "follow.tape", "todolist.tape"])
    func committedTapes(name: String) throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let replayed = try fixture.vmctl.run(["replay", Self.tapesDirectory + "/" + name])
        #expect(replayed.status == 0, "\(replayed)")
    }

    @Test("a changed expectation fails with exit 1, expected versus got, and the step before it")
    func divergence() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let original = VMCtlRunner.read(Self.tapesDirectory + "/counter.tape")
        let changed = original.replacing(#""value":40}"#, with: #""value":41}"#)
        #expect(changed != original)
        let path = try Self.scratchTape(fixture, "changed.tape", changed)
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path])
        #expect(replayed.status == 1, "\(replayed)")
        #expect(replayed.error.contains(#"output "count" differs at value #4"#), "\(replayed)")
        #expect(replayed.error.contains("expected: 41"))
        #expect(replayed.error.contains("got:      40"))
        #expect(replayed.error.contains("input set 40"))

        let outcome = original.replacing(#"{"result":0}"#, with: #"{"result":1}"#)
        let outcomePath = try Self.scratchTape(fixture, "outcome.tape", outcome)
        defer { _ = try? FileSystem.remove(outcomePath) }
        let failed = try fixture.vmctl.run(["replay", outcomePath])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.error.contains("action reset had another outcome"), "\(failed)")
    }

    @Test("--update rewrites the expectations so that the tape replays again")
    func update() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let original = VMCtlRunner.read(Self.tapesDirectory + "/counter.tape")
        let path = try Self.scratchTape(fixture, "update.tape",
                                         original.replacing(#""value":40}"#, with: #""value":41}"#))
        defer { _ = try? FileSystem.remove(path) }
        #expect(try fixture.vmctl.run(["replay", path]).status == 1)
        let updated = try fixture.vmctl.run(["replay", path, "--update", "--no-wait"])
        #expect(updated.status == 0, "\(updated)")
        #expect(updated.output.contains("output count: 6 recorded, 6 replayed\n  - 41\n  - 0\n  - 3\n  + 40\n  + 0\n  + 3"), "\(updated)")
        #expect(VMCtlRunner.read(path).contains(#""output":"count","value":40}"#))
        let again = try fixture.vmctl.run(["replay", path])
        #expect(again.status == 0, "\(again)")
    }

    @Test("bad tapes exit 2 with what is wrong", arguments: [
        ("", "the tape is empty"),
        (#"{"tape":4,"type":"Counter"}"#, "unsupported tape version 4"),
        (#"{"tape":2,"type":"Counter","fromCreation":false,"dropped":7}"#, "dropped the first 7 events"),
        (#"{"tape":1,"type":"Nope"}"#, "Unknown type \"Nope\""),
        ("{\"tape\":1,\"type\":\"Counter\"}\n{\"event\":\"input\",\"inp", "line 2: not JSON"),
        ("{\"tape\":1,\"type\":\"Counter\"}\n{\"event\":\"action\",\"action\":\"reset\"}", "is the tape truncated?"),
        ("{\"tape\":1,\"type\":\"Counter\"}\n{\"event\":\"rewind\"}", "unknown event \"rewind\""),
    ])
    func badTapes(text: String, expected: String) throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let path = try Self.scratchTape(fixture, "bad.tape", text)
        defer { _ = try? FileSystem.remove(path) }
        let replayed = try fixture.vmctl.run(["replay", path])
        #expect(replayed.status == 2, "\(replayed)")
        #expect(replayed.error.contains("bad tape"), "\(replayed)")
        #expect(replayed.error.contains(expected), "\(replayed)")
    }
}
