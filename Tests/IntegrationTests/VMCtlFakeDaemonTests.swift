import JSONCore
import Posix
import Testing
import VMTestSupport

/// The real `vmctl` binary against the scripted counter daemon: exit statuses, both output
/// modes, values as JSON and as strings. The scripted daemon answers each
/// connection alone (no fan-out), so watching live values is tested against the real vmd
/// in VMCtlTests.
@Suite("vmctl against a scripted daemon", .offTheCooperativePool)
struct VMCtlFakeDaemonTests {
    /// A scripted daemon on a temp socket and a runner pointed at it through VMD_SOCKET.
    private final class Fixture {
        let directory: TemporarySocketDirectory
        let daemon: FakeDaemon
        let vmctl: VMCtlRunner

        init() throws {
            directory = try TemporarySocketDirectory()
            let socket = directory.socketPath
            let world = FakeCounterWorld(bootID: "boot-1", socket: socket)
            daemon = try FakeDaemon(path: socket) { world.respond($0, $1, $2) }
            vmctl = VMCtlRunner(executable: try BuiltProducts.executable("vmctl"), socketPath: socket, scratch: directory.path)
        }

        /// Stops the daemon and removes the directory; call it from `defer`, which also keeps
        /// the fixture alive to the end of the test (ARC may end a local's life at its last use).
        func tearDown() {
            daemon.stop()
            directory.remove()
        }
    }

    @Test("get prints the value alone, and --json prints exactly the result")
    func getInBothModes() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["create", "Counter", "--arg", "start=41"]).output == "counter-1\n")
        #expect(try fixture.vmctl.run(["send", "counter-1", "increment"]).status == 0)
        let readable = try fixture.vmctl.run(["get", "counter-1", "count"])
        #expect(readable.status == 0)
        #expect(readable.output == "42\n")
        #expect(readable.error.isEmpty)
        let json = try fixture.vmctl.run(["--json", "get", "counter-1", "count"])
        #expect(json.output == "{\"value\":42}\n")
    }

    @Test("a daemon error exits 1 with its message and name on standard error")
    func daemonErrorExitsOne() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        let outcome = try fixture.vmctl.run(["get", "missing", "count"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.output.isEmpty)
        #expect(outcome.error.contains("No instance \"missing\""))
        #expect(outcome.error.contains("(unknownInstance)"))
    }

    @Test("usage errors exit 2 and say precisely what is wrong", arguments: [
        (["get", "counter-1"], "missing argument OUTPUT"),
        (["list", "--jsno"], "did you mean '--json'?"),
        (["call", "vm.get", "{not json"], "JSON-PARAMS is not valid JSON"),
        (["create", "Counter", "--arg", "start"], "expected KEY=VALUE"),
        (["watch", "counter-1", "--count", "x"], "expected an integer"),
        (["frobnicate"], "unknown subcommand 'frobnicate'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        let outcome = try fixture.vmctl.run(arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.contains(message), "\(outcome)")
        #expect(outcome.error.contains("usage: vmctl"))
    }

    @Test("no daemon exits 3 and says how to start one")
    func unreachableExitsThree() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        var vmctl = fixture.vmctl
        vmctl.environment["VMD_SOCKET"] = fixture.directory.file("nobody.sock")
        let outcome = try vmctl.run(["info"])
        #expect(outcome.status == 3, "\(outcome)")
        #expect(outcome.error.contains("nobody.sock (from VMD_SOCKET)"))
        #expect(outcome.error.contains("vmctl daemon start"))
        #expect(outcome.error.contains("vmd &"))
    }

    @Test("--socket wins over VMD_SOCKET")
    func socketFlagWins() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        var vmctl = fixture.vmctl
        vmctl.environment["VMD_SOCKET"] = fixture.directory.file("nobody.sock")
        let outcome = try vmctl.run(["--socket", fixture.daemon.path, "call", "daemon.info"])
        #expect(outcome.status == 0, "\(outcome)")
    }

    @Test("a VALUE is JSON when it parses, else a string")
    func valuesAreJSONOrStrings() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter"])
        #expect(try fixture.vmctl.run(["send", "counter-1", "increment", "5"]).status == 0)
        #expect(try fixture.vmctl.run(["get", "counter-1", "count"]).output == "5\n")
        // Not JSON: sent as the string "five"; the scripted counter adds its default of 1.
        #expect(try fixture.vmctl.run(["send", "counter-1", "increment", "five"]).status == 0)
        #expect(try fixture.vmctl.run(["get", "counter-1", "count"]).output == "6\n")
    }

    @Test("watch --json prints one vm.output params object per line")
    func watchJSON() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--arg", "start=7"])
        let outcome = try fixture.vmctl.run(["--json", "watch", "counter-1", "--count", "1"])
        let lines = try outcome.jsonLines()
        #expect(lines.count == 1)
        #expect(lines.first?["value"] == 7)
        #expect(lines.first?["seq"] == 1)
        #expect(lines.first?["replay"] == true)
    }

    @Test("watch --timeout ends after the time with exit 0")
    func watchTimesOut() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter"])
        let outcome = try fixture.vmctl.run(["watch", "counter-1", "--timeout", "0.2"])
        #expect(outcome.status == 0)
        #expect(outcome.lines == ["count = 0  (current)"])
    }

    @Test("call reads its params from standard input with '-'")
    func callReadsStandardInput() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--arg", "start=3"])
        let outcome = try fixture.vmctl.run(["--json", "call", "vm.get", "-"], input: #"{"instance":"counter-1","output":"count"}"#)
        #expect(outcome.output == "{\"value\":3}\n", "\(outcome)")
    }
}
