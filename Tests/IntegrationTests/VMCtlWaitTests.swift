import JSONCore
import Posix
import Testing
import VMTestSupport

/// `vmctl wait`, for scripts that start a daemon in the background and use it at once, and
/// how `vmctl get` prints strings that would not read back as themselves.
@Suite("vmctl wait and get's strings", .offTheCooperativePool)
struct VMCtlWaitTests {
    /// vmctl pointed at `directory`'s socket, where no daemon listens until the test starts one.
    private static func vmctl(in directory: TemporarySocketDirectory) throws -> VMCtlRunner {
        VMCtlRunner(executable: try BuiltProducts.executable("vmctl"), socketPath: directory.socketPath, scratch: directory.path)
    }

    @Test("wait keeps trying while nothing listens, and exits 0 with nothing printed once a daemon answers")
    func waitReturnsOnceTheDaemonAnswers() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["out", "state"]) }
        let vmctl = try Self.vmctl(in: directory)
        let waiting = try vmctl.start(["wait", "--timeout", "60"])
        // Nothing listens for a while: a vmctl that tried once would exit 3, not 0, below.
        #expect(!waiting.waitForLines(1, timeout: .milliseconds(300)))
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        let outcome = try waiting.wait(timeout: .seconds(30))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.isEmpty)
        let json = try vmctl.run(["--json", "wait"])
        #expect(try json.jsonLines().first?["pid"]?.intValue == Int(vmd.child.pid), "\(json)")
    }

    @Test("wait exits 3 after --timeout when nothing answers, saying where it waited; a bad timeout exits 2")
    func waitTimesOut() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmctl = try Self.vmctl(in: directory)
        let started = MonotonicClock.nanoseconds()
        let outcome = try vmctl.run(["wait", "--timeout", "0.3"])
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.error.contains("did not answer at \(directory.socketPath)"))
        #expect(MonotonicClock.nanoseconds() - started >= 300_000_000, "gave up before its timeout")
        #expect(try vmctl.run(["wait", "--timeout", "soon"]).status == 2)
    }

    @Test("wait is in vmctl's help and in every shell's completion")
    func waitIsDocumented() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmctl = try Self.vmctl(in: directory)
        #expect(try vmctl.run(["--help"]).output.contains("wait "))
        #expect(try vmctl.run(["help", "wait"]).output.contains("--timeout SECONDS"))
        for shell in ["bash", "zsh", "fish"] {
            #expect(try vmctl.run(["completion", shell]).output.contains("wait"), "\(shell)")
        }
    }

    @Test("get prints the empty string as \"\" and a string that is quoted JSON in JSON form, each as send reads it back")
    func getPrintsStringsThatReadBack() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let vmctl = fixture.vmctl
        _ = try vmctl.run(["create", "TextField", "--id", "field"])
        #expect(try vmctl.run(["get", "field", "text"]).output == "\"\"\n")
        #expect(try vmctl.run(["send", "field", "set", "plain words"]).status == 0)
        #expect(try vmctl.run(["get", "field", "text"]).output == "plain words\n")
        #expect(try vmctl.run(["send", "field", "set", #""\"hi\"""#]).status == 0)
        let quoted = try vmctl.run(["get", "field", "text"])
        #expect(quoted.output == #""\"hi\"""# + "\n")
        // What get printed, sent back, is the same string.
        #expect(try vmctl.run(["send", "field", "set", String(quoted.output.dropLast())]).status == 0)
        #expect(try vmctl.run(["--json", "get", "field", "text"]).output == #"{"value":"\"hi\""}"# + "\n")
        #expect(try vmctl.run(["send", "field", "set", "\"\""]).status == 0)
        #expect(try vmctl.run(["--json", "get", "field", "text"]).output == #"{"value":""}"# + "\n")
        #expect(try vmctl.run(["get", "field", "text"]).output == "\"\"\n")
    }
}
