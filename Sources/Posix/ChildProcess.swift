#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(UnixSignal)

    public var description: String {
        switch self {
        case .exited(let code): return "exited with status \(code)"
        case .signaled(let signal): return "killed by \(signal)"
        }
    }
}

/// A process started with `posix_spawn` (no `fork` in a multithreaded Swift process).
///
/// Children always start with default signal dispositions and an empty signal mask, so the
/// SIGPIPE vmd ignores (and any blocked signal) does not leak into them.
public struct ChildProcess: Hashable, Sendable {
    public let pid: Int32

    public init(pid: Int32) { self.pid = pid }

    /// Spawns `executable` with `arguments` (not including argv[0], which is `executable`).
    ///
    /// - Parameters:
    ///   - environment: the child's environment; `nil` inherits this process's.
    ///   - searchPath: look `executable` up in `PATH` when it has no slash.
    ///   - standardInput: a file opened read-only as fd 0 (`nil` inherits ours).
    ///   - outputPath: a file opened for appending (created 0600) as fd 1 and 2 (`nil` inherits).
    ///   - newSession: start a new session (`setsid`), detaching from our terminal.
    public static func spawn(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        searchPath: Bool = false,
        standardInput: String? = nil,
        outputPath: String? = nil,
        newSession: Bool = false
    ) throws -> ChildProcess {
        let argv = CStringArray([executable] + arguments)
        defer { argv.free() }
        let envp = environment.map { CStringArray($0.map { "\($0.key)=\($0.value)" }.sorted()) }
        defer { envp?.free() }
        var pid: pid_t = 0
        let code = argv.withPointer { argvPointer in
            withOptionalEnvironment(envp) { envPointer in
                cposix_spawn(&pid, executable, argvPointer, envPointer, standardInput, outputPath,
                             newSession ? 1 : 0, searchPath ? 1 : 0)
            }
        }
        if code != 0 { throw SystemError(call: "posix_spawn(\(executable))", errno: code) }
        return ChildProcess(pid: pid)
    }

    /// Starts a background daemon: its own session (no controlling terminal, immune to the
    /// shell's SIGHUP), stdin from `/dev/null`, stdout and stderr appended to `logPath`.
    /// Returns once the process exists; whether it is *ready* is for the caller to probe.
    public static func spawnDetached(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        logPath: String
    ) throws -> ChildProcess {
        try spawn(executable, arguments: arguments, environment: environment,
                  standardInput: "/dev/null", outputPath: logPath, newSession: true)
    }

    /// Blocks until the child ends and reaps it.
    public func wait() throws -> Termination {
        guard let termination = try reap(blocking: true) else {
            throw SystemError(call: "waitpid(\(pid))", errno: ECHILD)
        }
        return termination
    }

    /// Reaps the child if it has ended; `nil` while it runs.
    public func poll() throws -> Termination? { try reap(blocking: false) }

    /// Sends `signal` to the child.
    public func send(_ signal: UnixSignal) throws { try Self.send(signal, to: pid) }

    /// Sends `signal` to any process.
    public static func send(_ signal: UnixSignal, to pid: Int32) throws {
        let number = signal.rawValue
        try retryingOnInterrupt("kill(\(pid), \(signal))") { kill(pid, number) }
    }

    /// Whether a process with this pid exists (including a zombie not yet reaped). A process
    /// owned by another user counts as alive (`EPERM`).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid, 0) == 0 { return true }
        return cposix_errno() == EPERM
    }

    private func reap(blocking: Bool) throws -> Termination? {
        var exited: Int32 = 0
        var code: Int32 = 0
        var signaled: Int32 = 0
        var signalNumber: Int32 = 0
        let target = pid
        let result = try retryingOnInterrupt("waitpid(\(pid))") {
            cposix_wait(target, blocking ? 0 : 1, &exited, &code, &signaled, &signalNumber)
        }
        guard result == pid else { return nil }
        if signaled != 0 { return .signaled(UnixSignal(rawValue: signalNumber)) }
        return .exited(code)
    }
}

/// A NULL-terminated `char *[]` built from Swift strings; `free()` releases it.
private struct CStringArray {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    func withPointer<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        pointers.withUnsafeBufferPointer { buffer in
            // The array always holds at least the terminating nil, so it has storage.
            guard let base = buffer.baseAddress else { preconditionFailure("empty argument vector") }
            return body(base)
        }
    }

    func free() {
        for pointer in pointers { libcFree(pointer) }
    }
}

private func withOptionalEnvironment<R>(
    _ environment: CStringArray?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
) -> R {
    if let environment { return environment.withPointer(body) }
    guard let inherited = cposix_environ() else {
        return CStringArray([]).withPointer(body) // no environment at all: pass an empty one
    }
    return body(UnsafePointer(inherited))
}
