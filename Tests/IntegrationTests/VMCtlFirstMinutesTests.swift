import JSONCore
import Posix
import Synchronization
import Testing
import VMTestSupport

/// The papercuts a new vmctl user meets first: values read by their schema, hints
/// that name vmctl commands, watch counting only changes, completion from the running daemon.
@Suite("vmctl in the first ten minutes", .offTheCooperativePool)
struct VMCtlFirstMinutesTests {
    @Test("send reads a bare number as a string for a string input and as a number for an integer input")
    func sendReadsBySchema() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "TextField", "--id", "t1"])
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        let typed = try fixture.vmctl.run(["send", "t1", "type", "5"])
        #expect(typed.status == 0, "\(typed)")
        #expect(try fixture.vmctl.run(["--json", "get", "t1", "text"]).output == "{\"value\":\"5\"}\n")
        #expect(try fixture.vmctl.run(["send", "t1", "type", "true"]).status == 0)
        #expect(try fixture.vmctl.run(["--json", "get", "t1", "text"]).output == "{\"value\":\"true\"}\n")
        #expect(try fixture.vmctl.run(["send", "c1", "set", "5"]).status == 0)
        #expect(try fixture.vmctl.run(["--json", "get", "c1", "count"]).output == "{\"value\":5}\n")
    }

    @Test("create reads --arg values by the type's argument schema")
    func argReadsBySchema() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let created = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=12"])
        #expect(created.status == 0, "\(created)")
        #expect(try fixture.vmctl.run(["get", "c1", "count"]).output == "12\n")
    }

    @Test("an unknown instance's hint names vmctl list, not the protocol method")
    func hintsNameVMCtlCommands() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let missing = try fixture.vmctl.run(["get", "nope", "count"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("'vmctl list'"), "\(missing)")
        #expect(!missing.error.contains("vm.list"), "\(missing)")
        #expect(missing.error.contains("(unknownInstance)"))
        let unknownType = try fixture.vmctl.run(["create", "Conter"])
        #expect(unknownType.error.contains("'vmctl types'") && !unknownType.error.contains("vm.types"), "\(unknownType)")
    }

    @Test("watch --count-changes waits past the replayed value for a new one")
    func watchCountsChanges() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1", "--arg", "start=3"])
        let watch = try fixture.vmctl.start(["watch", "c1", "count", "--count-changes", "1"])
        #expect(watch.waitForLines(1))
        _ = try fixture.vmctl.run(["send", "c1", "increment"])
        let outcome = try watch.wait()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.lines == ["count = 3  (current)", "count = 4"])
    }

    @Test("__complete offers types, instances, then the instance's inputs, outputs and actions")
    func completesFromTheDaemon() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        _ = try fixture.vmctl.run(["create", "Login", "--id", "login"])
        func offered(_ words: String...) throws -> [String] { try fixture.vmctl.run(["__complete"] + words).lines }
        #expect(try offered("create", "").contains("Counter"))
        #expect(try offered("send", "") == ["c1", "login"])
        #expect(try offered("destroy", "l") == ["c1", "login"])  // the shell filters by prefix
        #expect(try offered("send", "login", "") == ["email", "password"])
        #expect(try offered("get", "login", "") == ["isLoginAllowed", "isLoading"])
        #expect(try offered("watch", "login", "isLoading", "") == ["isLoginAllowed", "loginSuccess", "loginFailure"])
        #expect(try offered("exec", "c1", "") == ["reset"])
        #expect(try offered("create", "Login", "--arg", "") == ["latencyMs="])
        #expect(try offered("create", "Counter", "--id", "").isEmpty)
        #expect(try offered("--socket", "") == [":files"])
    }

    @Test("__complete without a daemon offers nothing, says nothing and exits 0")
    func completesQuietlyWithoutADaemon() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        var nowhere = fixture.vmctl
        nowhere.environment["VMD_SOCKET"] = fixture.directory.file("nobody.sock")
        let outcome = try nowhere.run(["__complete", "send", ""])
        #expect(outcome.status == 0)
        #expect(outcome.output.isEmpty && outcome.error.isEmpty, "\(outcome)")
    }

    @Test("bash completes instances after send and no file names after --id")
    func bashCompletesLiveWords() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        _ = try fixture.vmctl.run(["create", "Counter", "--id", "c1"])
        let script = fixture.directory.file("completion.bash")
        try FileSystem.writeText(try fixture.vmctl.run(["completion", "bash"]).output, to: script)
        defer { _ = try? FileSystem.remove(script) }
        func complete(_ words: [String]) throws -> [String] {
            let quoted = ([fixture.vmctl.executable] + words).map { "'" + $0 + "'" }.joined(separator: " ")
            let driver = """
                source '\(script)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
                _vmctl
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let outcome = try fixture.vmctl.runShell(driver)
            return outcome.lines.filter { !$0.isEmpty }
        }
        #expect(try complete(["send", ""]) == ["c1"])
        #expect(try complete(["send", "c1", "in"]) == ["increment"])
        #expect(try complete(["create", "Co"]) == ["Counter"])
        #expect(try complete(["create", "Counter", "--id", ""]).isEmpty)
    }
}

extension VMCtlRunner {
    /// Runs a bash script with vmctl's environment (for driving the completion functions);
    /// standard output and standard error together.
    func runShell(_ script: String) throws -> Outcome {
        let token = String(MonotonicClock.nanoseconds())
        let (scriptPath, outPath) = (scratch + "/driver-\(token).bash", scratch + "/driver-\(token).out")
        try FileSystem.writeText(script, to: scriptPath)
        defer { for path in [scriptPath, outPath] { _ = try? FileSystem.remove(path) } }
        let child = try ChildProcess.spawn("/bin/bash", arguments: [scriptPath], environment: environment, outputPath: outPath)
        let status: Int32 = switch try child.wait() {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal.rawValue
        }
        return Outcome(status: status, output: VMCtlRunner.read(outPath), error: "")
    }
}

/// A schema that takes a string and a number makes a bare number ambiguous; only a scripted
/// daemon serves such a type (the catalog has none).
@Suite("vmctl reading an ambiguous value", .offTheCooperativePool)
struct VMCtlAmbiguousValueTests {
    @Test("a bare number for a string-or-integer input is refused with how to write the string, and nothing is sent")
    func ambiguousNumberIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let sent = Mutex<[JSONValue]>([])
        let daemon = try FakeDaemon(path: socket) { method, params, id in
            switch method {
            case "daemon.info":
                return [FakeDaemon.info(id, bootID: "boot-1", socket: socket)]
            case "vm.list":
                return [FakeDaemon.reply(id, ["instances": [["instance": "t1", "type": "Tag", "scope": "daemon", "subscribers": 0]]])]
            case "vm.types":
                let inputs: JSONValue = [["name": "label", "schema": ["type": ["string", "integer"]]]]
                return [FakeDaemon.reply(id, ["types": [["name": "Tag", "inputs": inputs, "outputs": [], "actions": []]]])]
            case "vm.send":
                sent.withLock { $0.append(params["value"] ?? .null) }
                return [FakeDaemon.reply(id, .null)]
            default:
                return [FakeDaemon.failure(id, code: -32601, name: "methodNotFound", message: "no \(method)")]
            }
        }
        defer { daemon.stop() }
        let vmctl = VMCtlRunner(executable: try BuiltProducts.executable("vmctl"), socketPath: socket, scratch: directory.path)
        let ambiguous = try vmctl.run(["send", "t1", "label", "5"])
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.error.contains("ambiguous") && ambiguous.error.contains("'\"5\"'"), "\(ambiguous)")
        #expect(try vmctl.run(["send", "t1", "label", "\"5\""]).status == 0)
        #expect(try vmctl.run(["send", "t1", "label", "five"]).status == 0)
        #expect(sent.withLock { $0 } == [.string("5"), .string("five")])
    }
}
