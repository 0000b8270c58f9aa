import JSONCore
import VMProtocol
import Posix
import VMClient

/// `daemon start|stop|status` (for people without a service manager) and `wait` (for scripts
/// that start one in the background).
enum DaemonCommands {
    static func status(_ run: Invocation) throws(CommandFailure) {
        let result = try run.call(DaemonInfoMethod.self)
        let info = try readInfo(result)
        run.print(result) { console in
            console.line(console.styled("vmd is running", Style.green)
                + ": pid \(info.pid), version \(info.version), up \(QueryCommands.formatUptime(info.uptimeSeconds)), "
                + "\(info.instances) instance\(info.instances == 1 ? "" : "s"), socket \(info.socket)")
        }
    }

    static func start(_ run: Invocation) throws(CommandFailure) {
        let wait = try run.seconds("wait") ?? .seconds(10)
        if let info = probe(run.location) {
            run.print(report(info, started: false, log: nil)) { console in
                console.line("vmd is already running: pid \(info.pid), socket \(info.socket)")
            }
            return
        }
        guard let stateDirectory = RuntimePaths.stateDirectory(environment: run.environment)?.path else {
            throw CommandFailure(status: .unreachable, message: "cannot choose a directory for vmd's log: set XDG_STATE_HOME or HOME")
        }
        let log = stateDirectory + "/vmd.log"
        let executable = vmdExecutable(run)
        let child: ChildProcess
        do {
            try FileSystem.makeDirectories(stateDirectory, permissions: 0o700)
            child = try ChildProcess.spawn(
                executable.path, arguments: ["--socket", run.location.path], searchPath: executable.searchPath,
                standardInput: "/dev/null", outputPath: log, newSession: true)
        } catch {
            throw CommandFailure(status: .unreachable, message: "cannot start \(executable.path): \(error)",
                                 hints: ["Give the executable with --vmd PATH, or put vmd on PATH."])
        }
        let deadline = MonotonicClock.nanoseconds() &+ nanoseconds(wait)
        let pause = Pause()
        while MonotonicClock.nanoseconds() < deadline {
            if let info = probe(run.location) {
                run.print(report(info, started: true, log: log)) { console in
                    console.line(console.styled("vmd started", Style.green) + ": pid \(info.pid), socket \(info.socket), log \(log)")
                }
                return
            }
            if let ended = try? child.poll() {
                throw CommandFailure(status: .unreachable, message: "vmd \(ended) before answering",
                                     hints: logTail(log) + ["Its log: \(log)"])
            }
            pause.wait(.milliseconds(10))
        }
        throw CommandFailure(status: .unreachable, message: "vmd (pid \(child.pid)) did not answer at \(run.location) within \(wait)",
                             hints: ["Its log: \(log)"])
    }

    /// `vmctl wait`: polls with `daemon.info` until the daemon answers, at most `--timeout`.
    static func wait(_ run: Invocation) throws(CommandFailure) {
        let timeout = try run.seconds("timeout") ?? .seconds(60)
        let deadline = MonotonicClock.nanoseconds() &+ nanoseconds(timeout)
        let pause = Pause()
        while true {
            if let info = probe(run.location) {
                run.print(info.jsonValue) { _ in }  // quiet: the exit status says it
                return
            }
            guard MonotonicClock.nanoseconds() < deadline else { break }
            pause.wait(.milliseconds(50))
        }
        throw CommandFailure(status: .unreachable, message: "vmd did not answer at \(run.location) within \(timeout)",
                             hints: ["Is a daemon starting on this socket (--socket, VMD_SOCKET)? Give a slow start longer with --timeout SECONDS."])
    }

    static func stop(_ run: Invocation) throws(CommandFailure) {
        let wait = try run.seconds("wait") ?? .seconds(10)
        let info: DaemonInfoMethod.Result
        do {
            info = try readInfo(try run.call(DaemonInfoMethod.self))
        } catch let failure where failure.status == .unreachable {
            run.console.note("vmd is not running (nothing answers at \(run.location)).")
            if run.json { run.console.line(#"{"stopped":false}"#) }
            return
        }
        try run.call(DaemonShutdownMethod.self)
        let deadline = MonotonicClock.nanoseconds() &+ nanoseconds(wait)
        let pause = Pause()
        while (try? FileSystem.info(run.location.path)) != nil {
            guard MonotonicClock.nanoseconds() < deadline else {
                throw CommandFailure(status: .daemonError,
                                     message: "vmd (pid \(info.pid)) accepted daemon.shutdown but its socket is still there after \(wait)")
            }
            pause.wait(.milliseconds(10))
        }
        run.print(["stopped": true, "pid": .integer(Int64(info.pid))]) { console in
            console.line("vmd stopped (pid \(info.pid))")
        }
    }

    // MARK: - Helpers

    /// `daemon.info` from whoever answers at `location`, or `nil`.
    private static func probe(_ location: VMSocketLocation) -> DaemonInfoMethod.Result? {
        guard let connection = try? VMBlockingConnection.connect(to: location, timeout: .seconds(1)),
              let result = try? connection.call(DaemonInfoMethod.self, timeout: .seconds(2)) else { return nil }
        return try? DaemonInfoMethod.Result(json: result)
    }

    private static func readInfo(_ result: JSONValue) throws(CommandFailure) -> DaemonInfoMethod.Result {
        do {
            return try DaemonInfoMethod.Result(json: result)
        } catch {
            throw CommandFailure(status: .daemonError, message: "\(DaemonInfoMethod.name) answered an unexpected shape: \(error)")
        }
    }

    private static func report(_ info: DaemonInfoMethod.Result, started: Bool, log: String?) -> JSONValue {
        var object: JSONObject = ["started": .bool(started), "pid": .integer(Int64(info.pid)), "socket": .string(info.socket)]
        if let log { object["log"] = .string(log) }
        return .object(object)
    }

    /// `--vmd`, else the `vmd` beside vmctl's own executable, else `vmd` looked up in PATH.
    private static func vmdExecutable(_ run: Invocation) -> (path: String, searchPath: Bool) {
        if let given = run.parsed.value("vmd") { return (given, !given.contains("/")) }
        if let directory = ownDirectory(run.environment) {
            let sibling = directory + "/vmd"
            if (try? FileSystem.info(sibling, followingSymlinks: true))??.kind == .regular { return (sibling, false) }
        }
        return ("vmd", true)
    }

    /// The directory of vmctl's executable, from argv[0] (a path, or a name found in PATH).
    private static func ownDirectory(_ environment: [String: String]) -> String? {
        guard let zeroth = CommandLine.arguments.first, !zeroth.isEmpty else { return nil }
        if zeroth.contains("/") { return FileSystem.parentDirectory(of: zeroth) ?? "." }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = String(directory) + "/" + zeroth
            if (try? FileSystem.info(candidate, followingSymlinks: true))??.kind == .regular { return String(directory) }
        }
        return nil
    }

    /// The last lines of the log, indented, for a failed start.
    private static func logTail(_ path: String) -> [String] {
        guard let bytes = try? FileSystem.readFile(path) else { return [] }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").suffix(5)
        return lines.map { "  | " + $0 }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }
}

/// Waits without spinning, between polls of something that has no event to wait on (a
/// socket file appearing or going): `poll` with a timeout on a pipe nobody writes.
private final class Pause {
    private let pipe = try? FileDescriptor.pipe()

    func wait(_ duration: Duration) {
        _ = try? pipe?.read.wait(for: .readable, timeout: duration)
    }
}
