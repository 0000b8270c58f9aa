#if canImport(Glibc)
import Glibc
#endif
import Posix

/// A `vmd` child process a benchmark suite starts for itself, listening on `vmd.sock` in a
/// directory of the suite's, with its output in `vmd.log` beside it.
final class BenchDaemon {
    /// The directory holding the socket and the log; ``stop()`` removes it.
    let directory: String
    /// The daemon's Unix socket path.
    let socketPath: String
    /// The running daemon.
    let child: ChildProcess

    /// The daemon's process id.
    var pid: Int32 { child.pid }

    /// Starts `vmdPath` on `directory/vmd.sock` at log level warning, with `arguments` after
    /// those, and without the systemd variables of this process (it must bind its own socket).
    init(vmdPath: String, directory: String, arguments: [String] = []) throws {
        self.directory = directory
        socketPath = directory + "/vmd.sock"
        child = try ChildProcess.spawn(
            vmdPath,
            arguments: ["--socket", socketPath, "--log-level", "warning"] + arguments,
            environment: CurrentProcess.environment.filter { !$0.key.hasPrefix("LISTEN_") && $0.key != "NOTIFY_SOCKET" },
            standardInput: "/dev/null", outputPath: directory + "/vmd.log")
    }

    /// A blocking client connection to the daemon at `path`, for the suites' own clients: 10 s
    /// to connect and a 30 s receive timeout, so a stuck daemon fails the run instead of hanging it.
    static func connectClient(to path: String) throws -> FileDescriptor {
        let socket = try UnixSocket.connect(to: UnixSocketAddress(path: path), timeout: .seconds(10))
        try UnixSocket.setTimeout(socket, receive: true, .seconds(30))
        return socket
    }

    /// This `vmd-bench`'s absolute path.
    static func ownExecutable() throws -> String {
        let own = CommandLine.arguments.first ?? "vmd-bench"
        return own.hasPrefix("/") ? own : (CurrentProcess.workingDirectory ?? ".") + "/" + own
    }

    /// The `vmd` built beside this `vmd-bench`.
    static func besideBench() throws -> String {
        let candidate = (FileSystem.parentDirectory(of: try ownExecutable()) ?? ".") + "/vmd"
        guard (try? FileSystem.info(candidate, followingSymlinks: true)) != nil else {
            throw BenchFailure("no vmd beside vmd-bench at \(candidate); build it first")
        }
        return candidate
    }

    /// The first `connect(socketPath)` that succeeds, tried every 5 ms for up to 20 s; fails
    /// early when the daemon ends first.
    func connectWhenListening<Connection>(_ connect: (String) throws -> Connection) throws -> Connection {
        let start = MonotonicClock.nanoseconds()
        while MonotonicClock.nanoseconds() - start < 20_000_000_000 {
            if let connection = try? connect(socketPath) { return connection }
            if let ended = try child.poll() {
                throw BenchFailure("vmd \(ended) before listening; see \(directory)/vmd.log")
            }
            CurrentProcess.sleep(for: .milliseconds(5))
        }
        throw BenchFailure("vmd did not listen within 20 s")
    }

    /// Returns once a connection to the socket succeeds (that probe connection is closed).
    func waitUntilListening() throws {
        let probe = try connectWhenListening { try UnixSocket.connect(to: UnixSocketAddress(path: $0)) }
        try? probe.close()
    }

    /// Terminates the daemon, waits for it, and removes its log and directory.
    func stop() {
        try? child.send(.terminate)
        _ = try? child.wait()
        _ = try? FileSystem.remove(directory + "/vmd.log")
        try? FileSystem.removeDirectory(directory)
    }

    /// The resident set size of process `pid` in bytes (VmRSS of /proc/PID/status).
    static func residentBytes(pid: Int32) throws -> Int {
        let text = String(decoding: try FileSystem.readFile("/proc/\(pid)/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.filter { $0.isNumber }) ?? 0) * 1024
        }
        throw BenchFailure("no VmRSS in /proc/\(pid)/status")
    }

    /// (user ticks, system ticks, page faults) of process `pid` so far, all its threads
    /// (/proc/PID/stat; a tick is ``nanosecondsPerTick``).
    static func usage(of pid: Int32) throws -> (user: Int, system: Int, faults: Int) {
        let text = String(decoding: try FileSystem.readFile("/proc/\(pid)/stat"), as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { throw BenchFailure("unreadable /proc/\(pid)/stat") }
        // Fields after "(comm)": state is field 3; minflt 10, majflt 12, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ").map { Int($0) ?? 0 }
        guard fields.count > 13 else { throw BenchFailure("short /proc/\(pid)/stat") }
        return (fields[11], fields[12], fields[7] + fields[9])
    }

    /// Nanoseconds per clock tick of /proc/PID/stat's CPU times.
    static let nanosecondsPerTick = 1e9 / Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
}
