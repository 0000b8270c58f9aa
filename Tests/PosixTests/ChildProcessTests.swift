import Posix
import VMTestSupport
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test("a short process runs, its output lands in the log, and its status is reported")
    func spawnShortProcess() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["log"]) }
        let log = directory.file("log")
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"],
            standardInput: "/dev/null", outputPath: log)
        #expect(try child.wait() == .exited(3))
        #expect(try FileSystem.readFile(log) == [UInt8]("out\nerr\n"))
    }

    @Test("the environment given replaces ours, and PATH search finds programs")
    func environmentAndPathSearch() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["log"]) }
        let log = directory.file("log")
        let child = try ChildProcess.spawn(
            "sh", arguments: ["-c", "echo \"$VMD_TEST_VALUE\""], environment: ["VMD_TEST_VALUE": "42", "PATH": "/usr/bin:/bin"],
            searchPath: true, outputPath: log)
        #expect(try child.wait() == .exited(0))
        #expect(try FileSystem.readFile(log) == [UInt8]("42\n"))
    }

    @Test("a detached child leads its own session and gets default signal dispositions")
    func detachedChild() throws {
        UnixSignal.ignoreBrokenPipe() // must not leak into the child
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["log"]) }
        let log = directory.file("log")
        let child = try ChildProcess.spawnDetached(
            "/bin/sh", arguments: ["-c", "cut -d' ' -f6 /proc/$$/stat; grep SigIgn /proc/self/status; cat"],
            logPath: log)
        #expect(try child.wait() == .exited(0))
        let output = String(decoding: try FileSystem.readFile(log), as: UTF8.self)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == String(child.pid)) // session id == pid: setsid happened
        // SigIgn is a hex mask, bit n-1 for signal n. Signals 32 and up are glibc's own
        // real-time signals; no standard signal (SIGPIPE in particular) may be ignored.
        let ignoredLine = try #require(lines.first { $0.hasPrefix("SigIgn:") })
        let ignored = try #require(UInt64(ignoredLine.dropFirst("SigIgn:".count).trimmingPrefix(while: \.isWhitespace), radix: 16))
        #expect(ignored & 0x7FFF_FFFF == 0, "\(output)")
        #expect(lines.count == 2) // `cat` read /dev/null and printed nothing
    }

    @Test("a running child is alive, a signal ends it, and once reaped it is gone")
    func signalAndLiveness() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["60"])
        #expect(ChildProcess.isAlive(child.pid))
        #expect(try child.poll() == nil)
        try child.send(.terminate)
        #expect(try child.wait() == .signaled(.terminate))
        #expect(!ChildProcess.isAlive(child.pid))
        #expect(ChildProcess.isAlive(CurrentProcess.pid))
        #expect(!ChildProcess.isAlive(0))
    }

    @Test("spawning a missing program names it and the errno")
    func missingProgram() throws {
        do {
            _ = try ChildProcess.spawn("/nonexistent/vmd")
            Issue.record("expected an error")
        } catch let error as SystemError {
            #expect(error.description == "posix_spawn(/nonexistent/vmd): No such file or directory (ENOENT)")
        }
    }

    @Test("an environment entry splits at its first '=', keeps the rest of the value and any UTF-8, and needs an '='")
    func environmentEntries() {
        func entry(_ text: String) -> [String]? {
            Array(text.utf8).withUnsafeBytes { CurrentProcess.environmentEntry($0) }.map { [$0.name, $0.value] }
        }
        #expect(entry("OPTS=a=b=c") == ["OPTS", "a=b=c"])
        #expect(entry("GREETING=grüße 🌍") == ["GREETING", "grüße 🌍"])
        #expect(entry("EMPTY=") == ["EMPTY", ""])
        #expect(entry("=value") == ["", "value"])
        #expect(entry("NO_EQUALS") == nil)
    }

    @Test("process facts are available without libc")
    func processFacts() {
        #expect(CurrentProcess.pid > 0)
        #expect(!CurrentProcess.hostname.isEmpty)
        #expect(CurrentProcess.environment["PATH"] == CurrentProcess.environmentValue("PATH"))
        for (name, value) in CurrentProcess.environment { #expect(CurrentProcess.environmentValue(name) == value) }
        #expect(MonotonicClock.nanoseconds() > 0)
        #expect(WallClock.nanosecondsSinceEpoch() > 1_600_000_000 * 1_000_000_000)
    }
}
