import JSONCore
import Posix

/// Runs the built `vmctl` as a child process and captures what it did: exit status, standard
/// output and standard error kept apart (a `/bin/sh` wrapper redirects fd 2 to its own file,
/// since the spawn helper sends both to one file).
struct VMCtlRunner {
    /// What one run of vmctl produced.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var output: String
        var error: String

        /// Standard output split into lines, without the trailing empty one.
        var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }

        /// Each output line parsed as JSON (for `--json` runs).
        func jsonLines() throws -> [JSONValue] { try lines.map { try JSONValue(parsing: $0) } }

        var description: String { "status \(status)\n--- stdout\n\(output)--- stderr\n\(error)" }
    }

    let executable: String
    let socketPath: String
    let scratch: String
    var environment: [String: String]

    /// - Parameters:
    ///   - executable: the vmctl to run.
    ///   - socketPath: exported as `VMD_SOCKET`, so tests exercise the environment rule.
    ///   - scratch: a directory for the captured output files.
    init(executable: String, socketPath: String, scratch: String) {
        self.executable = executable
        self.socketPath = socketPath
        self.scratch = scratch
        var environment = CurrentProcess.environment.filter { !$0.key.hasPrefix("VMD_") }
        environment["VMD_SOCKET"] = socketPath
        environment["NO_COLOR"] = "1"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        self.environment = environment
    }

    /// Runs `vmctl arguments...`, feeding `input` on standard input, and waits (bounded) for it.
    func run(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(20)) throws -> Outcome {
        try start(arguments, input: input).wait(timeout: timeout)
    }

    /// Starts `vmctl arguments...` and returns at once (for `watch` and `monitor`).
    func start(_ arguments: [String], input: String? = nil) throws -> Running {
        let token = String(MonotonicClock.nanoseconds())
        let paths = (out: scratch + "/out-\(token)", err: scratch + "/err-\(token)", input: scratch + "/in-\(token)")
        try FileSystem.writeText(input ?? "", to: paths.input)
        var environment = self.environment
        environment["VMCTL_TEST_STDERR"] = paths.err
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", #"exec "$0" "$@" 2>"$VMCTL_TEST_STDERR""#, executable] + arguments,
            environment: environment, standardInput: paths.input, outputPath: paths.out)
        return Running(child: child, arguments: arguments, outPath: paths.out, errPath: paths.err, inPath: paths.input)
    }

    /// A vmctl process still running.
    final class Running {
        let child: ChildProcess
        let arguments: [String]
        let outPath: String
        let errPath: String
        let inPath: String
        private let idle: (read: FileDescriptor, write: FileDescriptor)?
        /// Kept once reaped: a second `waitpid` would fail.
        private var termination: Termination?

        init(child: ChildProcess, arguments: [String], outPath: String, errPath: String, inPath: String) {
            self.child = child
            self.arguments = arguments
            self.outPath = outPath
            self.errPath = errPath
            self.inPath = inPath
            idle = try? FileDescriptor.pipe()
        }

        /// Standard output written so far.
        var outputSoFar: String { VMCtlRunner.read(outPath) }

        /// Waits (bounded) until standard output holds at least `count` lines; false at the deadline.
        func waitForLines(_ count: Int, timeout: Duration = .seconds(10)) -> Bool {
            let deadline = MonotonicClock.nanoseconds() &+ VMCtlRunner.nanoseconds(timeout)
            while MonotonicClock.nanoseconds() < deadline {
                if outputSoFar.split(separator: "\n").count >= count { return true }
                if reap() != nil { return outputSoFar.split(separator: "\n").count >= count }
                pause()
            }
            return false
        }

        /// Waits (bounded) for the process to end and returns what it did.
        func wait(timeout: Duration = .seconds(20)) throws -> Outcome {
            defer {
                for path in [outPath, errPath, inPath] { _ = try? FileSystem.remove(path) }
            }
            let deadline = MonotonicClock.nanoseconds() &+ VMCtlRunner.nanoseconds(timeout)
            while reap() == nil {
                if MonotonicClock.nanoseconds() > deadline {
                    try? child.send(.kill)
                    _ = try? child.wait()
                    throw RunnerError("vmctl \(arguments) did not finish within \(timeout); output so far:\n\(outputSoFar)")
                }
                pause()
            }
            let status: Int32
            switch termination {
            case .exited(let code)?: status = code
            case .signaled(let signal)?: status = 128 + signal.rawValue
            case nil: status = -1
            }
            return Outcome(status: status, output: VMCtlRunner.read(outPath), error: VMCtlRunner.read(errPath))
        }

        private func reap() -> Termination? {
            if termination == nil { termination = try? child.poll() }
            return termination
        }

        private func pause() {
            _ = try? idle?.read.wait(for: .readable, timeout: .milliseconds(2))
        }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    static func read(_ path: String) -> String {
        String(decoding: (try? FileSystem.readFile(path)) ?? [], as: UTF8.self)
    }
}

struct RunnerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension FileSystem {
    /// Writes `text` to a new file (tests only).
    static func writeText(_ text: String, to path: String) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o600)
        try file.writeAll(Array(text.utf8))
        try file.close()
    }
}
