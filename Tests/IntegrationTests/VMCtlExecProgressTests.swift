import JSONCore
import Posix
import Testing
import VMTestSupport

/// `vmctl exec` and long actions: a progress bar on a terminal, plain lines without one,
/// JSON lines with `--json`, and Ctrl-C cancelling the execution in the daemon.
@Suite("vmctl exec: progress and Ctrl-C", .offTheCooperativePool)
struct VMCtlExecProgressTests {
    /// A SendList `s` ready to send, uploading for `uploadMs`.
    private func readySendList(_ fixture: VMCtlFixture, uploadMs: Int) throws {
        #expect(try fixture.vmctl.run(["create", "SendList", "--id", "s", "--arg", "uploadMs=\(uploadMs)"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "s", "addRecipient", "ada@example.com"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "s", "message", "Hello"]).status == 0)
    }

    @Test("under a pseudo-terminal, exec draws a bar with a percentage, then prints the value")
    func barOnATerminal() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        try readySendList(fixture, uploadMs: 300)
        // util-linux's script(1) gives vmctl a terminal on stdout and stderr and copies it to ours.
        let terminal = VMCtlRunner(executable: "/usr/bin/script", socketPath: fixture.socketPath, scratch: fixture.directory.path)
        let vmctl = try BuiltProducts.executable("vmctl")
        let outcome = try terminal.run(["-qefc", "'\(vmctl)' exec s send", "/dev/null"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("\r"), "the bar is redrawn in place")
        #expect(outcome.output.contains("[###############---------------]  50% uploading"), "\(outcome)")
        #expect(outcome.output.contains("100% uploaded"), "\(outcome)")
        #expect(outcome.output.contains("uploadId"), "\(outcome)")
    }

    @Test("without a terminal, exec writes one progress line per report on stderr; stdout holds only the value")
    func linesWithoutATerminal() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        try readySendList(fixture, uploadMs: 200)
        let outcome = try fixture.vmctl.run(["exec", "s", "send"])
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.error.split(separator: "\n").map(String.init)
        #expect(lines.first == "progress:   0% uploading")
        #expect(lines.contains("progress:  50% uploading"))
        #expect(lines.last == "progress: 100% uploaded")
        #expect(lines.count == 11)
        #expect(!outcome.output.contains("progress"))
        #expect(outcome.output.contains("uploadId"))
    }

    @Test("with --json, progress is JSON lines on stderr and stdout the JSON result; --no-progress asks for none")
    func jsonLines() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        try readySendList(fixture, uploadMs: 100)
        let outcome = try fixture.vmctl.run(["--json", "exec", "s", "send"])
        #expect(outcome.status == 0, "\(outcome)")
        let progress = try outcome.error.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(progress.count == 11)
        #expect(progress.last == ["request": 1, "instance": "s", "action": "send", "completed": 100, "total": 100, "message": "uploaded"])
        #expect((try outcome.jsonLines().first?["value"]?["uploadId"]?.intValue ?? 0) >= 1, "\(outcome)")
        let quiet = try fixture.vmctl.run(["exec", "s", "send", "--no-progress"])
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.error.isEmpty, "\(quiet)")
    }

    @Test("Ctrl-C cancels the execution in the daemon ($/cancelRequest) and exits 130")
    func interruptCancels() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        try readySendList(fixture, uploadMs: 60_000)
        let running = try fixture.vmctl.start(["exec", "s", "send"])
        // Waits (bounded, on a pipe nobody writes to) for the first progress line: by then
        // vmctl catches SIGINT.
        let idle = try FileDescriptor.pipe()
        let deadline = MonotonicClock.nanoseconds() &+ 10_000_000_000
        while !VMCtlRunner.read(running.errPath).contains("progress:"), MonotonicClock.nanoseconds() < deadline {
            _ = try idle.read.wait(for: .readable, timeout: .milliseconds(5))
        }
        try running.child.send(.interrupt)
        let outcome = try running.wait()
        #expect(outcome.status == 130, "\(outcome)")
        #expect(outcome.error.contains("cancelled"), "\(outcome)")
        // The daemon cancelled it: the action is idle again (the instance outlives vmctl).
        #expect(try fixture.vmctl.run(["get", "s", "isSending"]).output == "false\n")
    }
}
