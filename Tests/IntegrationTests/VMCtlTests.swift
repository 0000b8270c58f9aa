import JSONCore
import Posix
import Testing
import VMTestSupport

/// The real `vmctl` against the real `vmd`: every subcommand, both output modes, every exit
/// status, values as JSON and as strings, watch with --count, monitor, completion scripts.
@Suite("vmctl against vmd", .offTheCooperativePool)
struct VMCtlTests {
    @Test("info prints the daemon's facts, and --json the daemon.info result")
    func info() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let readable = try fixture.vmctl.run(["info"])
        #expect(readable.status == 0, "\(readable)")
        #expect(readable.lines.contains { $0.hasPrefix("protocol") && $0.hasSuffix(" 1") })
        #expect(readable.lines.contains { $0.hasPrefix("socket") && $0.hasSuffix(fixture.socketPath) })
        #expect(readable.lines.contains { $0.hasPrefix("  maxFrameBytes") })
        let json = try fixture.vmctl.run(["--json", "info"])
        let result = try #require(try json.jsonLines().first)
        #expect(json.lines.count == 1)
        #expect(result["protocol"] == 1)
        #expect(result["socket"]?.stringValue == fixture.socketPath)
    }

    @Test("types lists the catalog as a table and describes one type")
    func types() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let table = try fixture.vmctl.run(["types"])
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.first?.hasPrefix("TYPE") == true)
        #expect(table.lines.contains { $0.hasPrefix("Counter ") })
        #expect(table.lines.contains { $0.hasPrefix("Login ") })
        let login = try fixture.vmctl.run(["types", "Login"])
        #expect(login.status == 0)
        #expect(login.lines.first?.hasPrefix("Login") == true)
        for expected in ["Inputs", "Outputs", "Actions", "email", "isLoginAllowed", "submit", "latencyMs"] {
            #expect(login.output.contains(expected), "types Login lacks \(expected):\n\(login.output)")
        }
        #expect(login.lines.contains { $0.contains("loginSuccess") && $0.contains("event") })
        let json = try fixture.vmctl.run(["--json", "types", "Counter"])
        let result = try #require(try json.jsonLines().first)
        #expect(result["types"]?[0]?["name"] == "Counter")
        let unknown = try fixture.vmctl.run(["types", "Conter"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("(unknownType)"))
    }

    @Test("create, list and destroy manage instances in both output modes")
    func createListDestroy() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        #expect(try fixture.vmctl.run(["list"]).output.hasPrefix("No instances."))
        let created = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=5"])
        #expect(created.status == 0, "\(created)")
        #expect(created.output == "c1\n")
        let generated = try fixture.vmctl.run(["--json", "create", "Counter"])
        let result = try #require(try generated.jsonLines().first)
        #expect(result["instance"] == "counter-1")
        #expect(result["type"] == "Counter")
        #expect(result["scope"] == "daemon")

        let table = try fixture.vmctl.run(["list"])
        #expect(table.lines.count == 3, "\(table)")
        #expect(table.lines[0].split(separator: " ", omittingEmptySubsequences: true) == ["INSTANCE", "TYPE", "SCOPE", "SUBSCRIBERS", "PARENT"])
        #expect(table.lines[1].split(separator: " ", omittingEmptySubsequences: true) == ["c1", "Counter", "daemon", "0"])
        let listed = try #require(try fixture.vmctl.run(["--json", "list"]).jsonLines().first)
        #expect(listed["instances"]?.arrayValue?.compactMap { $0["instance"]?.stringValue } == ["c1", "counter-1"])

        let destroyed = try fixture.vmctl.run(["destroy", "c1"])
        #expect(destroyed.status == 0)
        #expect(destroyed.output.isEmpty)
        #expect(try fixture.vmctl.run(["--json", "destroy", "counter-1"]).output == "{\"destroyed\":true}\n")
        let again = try fixture.vmctl.run(["destroy", "c1"])
        #expect(again.status == 1)
        #expect(again.error.contains("(unknownInstance)"))
        let taken = try fixture.vmctl.run(["create", "Counter", "--id", "bad id!"])
        #expect(taken.status == 1)
        #expect(taken.error.contains("(invalidParams)"))
    }

    @Test("an instance of scope connection is gone once vmctl's connection closes")
    func connectionScope() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let created = try fixture.vmctl.run(["create", "Counter", "--id", "brief", "--scope", "connection"])
        #expect(created.output == "brief\n")
        let gone = try Waiting.until(timeout: .seconds(10)) {
            try !fixture.vmctl.run(["list"]).output.contains("brief")
        }
        #expect(gone)
    }

    @Test("send takes JSON values and plain strings; get prints them; errors exit 1")
    func sendAndGet() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        #expect(try fixture.vmctl.run(["send", "c1", "set", "10"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "increment"]).status == 0)
        #expect(try fixture.vmctl.run(["send", "c1", "increment", "-3"]).status == 0)
        #expect(try fixture.vmctl.run(["get", "c1", "count"]).output == "8\n")
        #expect(try fixture.vmctl.run(["--json", "get", "c1", "count"]).output == "{\"value\":8}\n")
        #expect(try fixture.vmctl.run(["--json", "send", "c1", "decrement"]).output == "null\n")
        let notANumber = try fixture.vmctl.run(["send", "c1", "set", "ten"])
        #expect(notANumber.status == 1)
        #expect(notANumber.error.contains("(invalidValue)"))
        let quoted = try fixture.vmctl.run(["send", "c1", "set", "\"7\""])
        #expect(quoted.status == 1, "a JSON string is a string, not a number")

        _ = try fixture.vmctl.run(["create", "Login", "--id", "login"])
        #expect(try fixture.vmctl.run(["send", "login", "email", "demo@example.com"]).status == 0)
        #expect(try fixture.vmctl.run(["get", "login", "isLoginAllowed"]).output == "false\n")
        #expect(try fixture.vmctl.run(["send", "login", "password", "secret"]).status == 0)
        #expect(try fixture.vmctl.run(["get", "login", "isLoginAllowed"]).output == "true\n")
        let event = try fixture.vmctl.run(["get", "login", "loginSuccess"])
        #expect(event.status == 1)
        #expect(event.error.contains("(notStateOutput)"))
        let unknown = try fixture.vmctl.run(["send", "login", "emial", "x"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("(unknownInput)"))
    }

    @Test("exec runs an action and prints its value; timeouts and disabled actions exit 1")
    func exec() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=4"])
        let reset = try fixture.vmctl.run(["exec", "c1", "reset"])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.output == "0\n")
        #expect(try fixture.vmctl.run(["--json", "exec", "c1", "reset"]).output == "{\"value\":0}\n")

        _ = try fixture.vmctl.run(["create", "Login", "--id", "login", "--arg", "latencyMs=20"])
        let disabled = try fixture.vmctl.run(["exec", "login", "submit"])
        #expect(disabled.status == 1)
        #expect(disabled.error.contains("(actionNotEnabled)"))
        _ = try fixture.vmctl.run(["send", "login", "email", "demo@example.com"])
        _ = try fixture.vmctl.run(["send", "login", "password", "secret"])
        let signedIn = try fixture.vmctl.run(["exec", "login", "submit", "--timeout-ms", "5000"])
        #expect(signedIn.status == 0, "\(signedIn)")
        #expect(signedIn.output == "demo@example.com\n")

        _ = try fixture.vmctl.run(["create", "Login", "--id", "slow", "--arg", "latencyMs=5000"])
        _ = try fixture.vmctl.run(["send", "slow", "email", "demo@example.com"])
        _ = try fixture.vmctl.run(["send", "slow", "password", "secret"])
        let timedOut = try fixture.vmctl.run(["exec", "slow", "submit", "--timeout-ms", "50"])
        #expect(timedOut.status == 1)
        #expect(timedOut.error.contains("(actionTimedOut)"))
    }

    @Test("watch --count prints the current value and live ones from other processes, then exits 0")
    func watchCount() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=1"])
        let watch = try fixture.vmctl.start(["watch", "c1", "count", "--count", "3"])
        #expect(watch.waitForLines(1))
        _ = try fixture.vmctl.run(["send", "c1", "increment"])
        _ = try fixture.vmctl.run(["send", "c1", "set", "40"])
        let outcome = try watch.wait()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.lines == ["count = 1  (current)", "count = 2", "count = 40"])
    }

    @Test("watch --json prints one vm.output per line; --no-replay skips the current value")
    func watchJSON() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=5"])
        let watch = try fixture.vmctl.start(["--json", "watch", "c1", "--count", "2"])
        #expect(watch.waitForLines(1))
        _ = try fixture.vmctl.run(["send", "c1", "increment"])
        let lines = try watch.wait().jsonLines()
        #expect(lines.map { $0["value"] } == [5, 6])
        #expect(lines.map { $0["seq"] } == [1, 2])
        #expect(lines[0]["replay"] == true)
        #expect(lines[1]["replay"] == nil)

        let live = try fixture.vmctl.start(["watch", "c1", "--no-replay", "--count", "1"])
        // Nothing is printed before the first change: wait until the daemon counts the subscriber.
        let subscribed = try Waiting.until(timeout: .seconds(10)) {
            try fixture.vmctl.run(["--json", "list"]).jsonLines().first?["instances"]?[0]?["subscribers"] == 1
        }
        #expect(subscribed)
        _ = try fixture.vmctl.run(["send", "c1", "increment"])
        #expect(try live.wait().lines == ["count = 7"])
    }

    @Test("watch --patches prints a patched value as OUTPUT ~ op path value, and --json as it came")
    func watchPatches() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["call", "vm.create", #"{"type":"TodoList","id":"todo","args":{"items":[{"title":"a title long enough that a patch is shorter"}]}}"#])
        let watch = try fixture.vmctl.start(["watch", "todo", "items", "--patches", "--count", "2"])
        let raw = try fixture.vmctl.start(["--json", "watch", "todo", "items", "--patches", "--count", "2"])
        #expect(watch.waitForLines(1))
        #expect(raw.waitForLines(1))
        _ = try fixture.vmctl.run(["send", "todo", "toggle", "1"])
        #expect(try watch.wait().lines == [
            #"items = [{"id":1,"title":"a title long enough that a patch is shorter","done":false}]  (current)"#,
            "items ~ replace /0/done true",
        ])
        let lines = try raw.wait().jsonLines()
        #expect(lines.last?["patch"] == [["op": "replace", "path": "/0/done", "value": true]])
        #expect(lines.last?["value"] == nil)
    }

    @Test("watch ends with exit 0 when its instance is destroyed")
    func watchEndsOnDestroy() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        let watch = try fixture.vmctl.start(["watch", "c1"])
        #expect(watch.waitForLines(1))
        #expect(try fixture.vmctl.run(["destroy", "c1"]).status == 0)
        let outcome = try watch.wait()
        #expect(outcome.status == 0)
        #expect(outcome.lines == ["count = 0  (current)", "c1 closed (destroyed)"])
    }

    @Test("the README transcript: watch a Login in one process, type and submit from another")
    func loginTranscript() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Login", "--id", "login", "--arg", "latencyMs=50"])
        let watch = try fixture.vmctl.start(["watch", "login", "--count", "6"])
        #expect(watch.waitForLines(2))
        _ = try fixture.vmctl.run(["send", "login", "email", "demo@example.com"])
        _ = try fixture.vmctl.run(["send", "login", "password", "secret"])
        #expect(try fixture.vmctl.run(["exec", "login", "submit"]).output == "demo@example.com\n")
        let outcome = try watch.wait()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.lines == [
            "isLoginAllowed = false  (current)",
            "isLoading = false  (current)",
            "isLoginAllowed = true",
            "isLoading = true",
            "loginSuccess = \"demo@example.com\"",
            "isLoading = false",
        ], "\(outcome)")
    }

    @Test("watch --timeout ends after the time with exit 0")
    func watchTimeout() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        let outcome = try fixture.vmctl.run(["watch", "c1", "--timeout", "0.2"])
        #expect(outcome.status == 0)
        #expect(outcome.lines == ["count = 0  (current)"])
    }

    @Test("call sends raw params, from the argument or standard input, and prints the result")
    func call() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=3"])
        let pretty = try fixture.vmctl.run(["call", "vm.get", #"{"instance":"c1","output":"count"}"#])
        #expect(pretty.status == 0, "\(pretty)")
        #expect(try JSONValue(parsing: pretty.output) == ["value": 3])
        let piped = try fixture.vmctl.run(["--json", "call", "vm.list", "-"], input: "{}")
        #expect(try piped.jsonLines().first?["instances"]?[0]?["instance"] == "c1")
        let discovered = try fixture.vmctl.run(["--json", "call", "rpc.discover"])
        #expect(try discovered.jsonLines().first?["openrpc"] != nil)
        let unknown = try fixture.vmctl.run(["call", "vm.sned", "{}"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("(methodNotFound)"))
        let invalid = try fixture.vmctl.run(["call", "vm.list", "{"])
        #expect(invalid.status == 2)
    }

    @Test("monitor prints the messages other connections exchange")
    func monitor() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        let monitor = try fixture.vmctl.start(["--json", "monitor", "--count", "2"])
        // Keep calling until the monitor has seen two messages and exited (bounded).
        let ended = try Waiting.until(timeout: .seconds(10)) {
            _ = try fixture.vmctl.run(["get", "c1", "count"])
            return monitor.waitForLines(2, timeout: .milliseconds(50))
        }
        #expect(ended)
        let lines = try monitor.wait().jsonLines()
        #expect(lines.count == 2)
        for line in lines {
            #expect(line["direction"] == "in" || line["direction"] == "out")
            #expect(line["message"]?["jsonrpc"] == "2.0")
            #expect(line["connection"]?.int64Value != nil)
        }
    }

    @Test("no daemon exits 3 with how to start one; usage errors exit 2")
    func exitStatuses() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let unreachable = try fixture.vmctl.run(["--socket", fixture.directory.file("none.sock"), "list"])
        #expect(unreachable.status == 3)
        #expect(unreachable.error.contains("vmctl daemon start"))
        let usage = try fixture.vmctl.run(["get", "c1"])
        #expect(usage.status == 2)
        #expect(usage.error.contains("missing argument OUTPUT"))
        let help = try fixture.vmctl.run(["--help"])
        #expect(help.status == 0)
        for code in ["0", "1", "2", "3"] {
            #expect(help.lines.contains { $0.drop(while: { $0 == " " }).hasPrefix(code + " ") }, "help lacks exit code \(code)")
        }
        let watchHelp = try fixture.vmctl.run(["help", "watch"])
        #expect(watchHelp.output.contains("--count N"))
        #expect(try fixture.vmctl.run(["--version"]).output.hasPrefix("vmctl "))
    }

    @Test("daemon start, status and stop manage a vmd with its log in the state directory")
    func daemonLifecycle() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        var vmctl = fixture.vmctl
        let socket = fixture.directory.file("own.sock")
        vmctl.environment["VMD_SOCKET"] = socket
        defer { _ = try? vmctl.run(["daemon", "stop"]) }

        let before = try vmctl.run(["daemon", "status"])
        #expect(before.status == 3)
        let started = try vmctl.run(["daemon", "start"])
        #expect(started.status == 0, "\(started)")
        #expect(started.output.hasPrefix("vmd started"))
        let log = fixture.directory.file("state/vmd/vmd.log")
        #expect((try FileSystem.info(log))?.kind == .regular)
        let status = try vmctl.run(["daemon", "status"])
        #expect(status.status == 0)
        #expect(status.output.contains("vmd is running"))
        #expect(status.output.contains(socket))
        let again = try vmctl.run(["--json", "daemon", "start"])
        #expect(try again.jsonLines().first?["started"] == false)
        let stopped = try vmctl.run(["daemon", "stop"])
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.output.hasPrefix("vmd stopped"))
        #expect(try FileSystem.info(socket) == nil)
        #expect(try vmctl.run(["daemon", "status"]).status == 3)
        _ = try? FileSystem.remove(log)
    }

    @Test("completion scripts are valid shell", arguments: ["bash", "zsh", "fish"])
    func completion(shell: String) throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let outcome = try fixture.vmctl.run(["completion", shell])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("vmctl"))
        guard let interpreter = Self.onPath(shell) else { return }  // zsh and fish may be absent
        let script = fixture.directory.file("completion.\(shell)")
        try FileSystem.writeText(outcome.output, to: script)
        defer { _ = try? FileSystem.remove(script) }
        let check = try ChildProcess.spawn(interpreter, arguments: ["-n", script], outputPath: "/dev/null")
        #expect(try check.wait() == .exited(0), "\(shell) -n rejects the script")
    }

    private static func onPath(_ name: String) -> String? {
        for directory in (CurrentProcess.environmentValue("PATH") ?? "").split(separator: ":") {
            let path = String(directory) + "/" + name
            if (try? FileSystem.info(path, followingSymlinks: true))??.kind == .regular { return path }
        }
        return nil
    }
}
