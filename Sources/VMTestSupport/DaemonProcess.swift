import Posix

/// The real `vmd` binary running as a child process on a test socket.
///
/// Its environment is the test's minus anything that would change its behaviour behind the
/// test's back (`VMD_*`, `NOTIFY_SOCKET`, `JOURNAL_STREAM`, `LISTEN_*`), with
/// `XDG_CONFIG_HOME` pointing into the test's directory so no user config file is read.
/// `VMD_EVENT_LOOP` alone passes through, so `VMD_EVENT_LOOP=poll swift test` runs every
/// spawned daemon on the poll backend.
/// Standard output and error go to a log file the test can read.
package final class DaemonProcess {
    package let child: ChildProcess
    package let socketPath: String
    package let logPath: String
    private var termination: Termination?

    private init(child: ChildProcess, socketPath: String, logPath: String) {
        self.child = child
        self.socketPath = socketPath
        self.logPath = logPath
    }

    /// The environment a test daemon gets, before `overrides`.
    package static func cleanEnvironment(configHome: String) -> [String: String] {
        var environment = CurrentProcess.environment.filter { name, _ in
            (!name.hasPrefix("VMD_") || name == "VMD_EVENT_LOOP") && !name.hasPrefix("LISTEN_")
                && name != "NOTIFY_SOCKET" && name != "JOURNAL_STREAM"
        }
        environment["XDG_CONFIG_HOME"] = configHome
        return environment
    }

    /// Starts `executable` (the built `vmd` by default) with `--socket socketPath` and
    /// `arguments`, and, when `waitUntilReady`, returns once a connection succeeds.
    /// - Throws: when the process cannot start, exits early (its log is in the error), or does
    ///   not listen within `timeout`.
    package static func start(
        socketPath: String, arguments: [String] = [], environment overrides: [String: String] = [:],
        directory: TemporarySocketDirectory, executable: String? = nil, passSocketFlag: Bool = true,
        waitUntilReady: Bool = true, timeout: Duration = .seconds(20)
    ) throws -> DaemonProcess {
        let path = try executable ?? BuiltProducts.executable("vmd")
        var environment = cleanEnvironment(configHome: directory.file("config"))
        for (name, value) in overrides { environment[name] = value }
        let logPath = directory.file("vmd.log")
        let child = try ChildProcess.spawn(
            path, arguments: (passSocketFlag ? ["--socket", socketPath] : []) + arguments,
            environment: environment, standardInput: "/dev/null", outputPath: logPath)
        let process = DaemonProcess(child: child, socketPath: socketPath, logPath: logPath)
        if waitUntilReady { try process.waitUntilListening(timeout: timeout) }
        return process
    }

    /// Waits until a connection to the socket succeeds (and closes it), failing early if the
    /// process exits.
    package func waitUntilListening(timeout: Duration = .seconds(20)) throws {
        let deadline = Deadline(after: timeout)
        while try !probeOnce() {
            if deadline.hasPassed { throw DaemonProcessError("vmd did not listen within \(timeout); its log:\n" + log) }
            Waiting.pause(.milliseconds(2))
        }
    }

    /// Whether a connection to the socket succeeds now (it is closed at once).
    /// - Throws: when the process has exited (its log is in the error).
    package func probeOnce() throws -> Bool {
        if let ended = try reap() {
            throw DaemonProcessError("vmd exited (\(ended)) before listening; its log:\n" + log)
        }
        guard let client = try? SocketClient(path: socketPath) else { return false }
        client.close()
        return true
    }

    /// Everything the daemon wrote to stdout and stderr so far.
    package var log: String {
        guard let bytes = try? FileSystem.readFile(logPath) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Sends `signal` (SIGTERM by default).
    package func signal(_ signal: UnixSignal = .terminate) throws {
        try child.send(signal)
    }

    /// Waits (bounded) for the process to end; `nil` at the timeout.
    package func waitForExit(timeout: Duration = .seconds(20)) throws -> Termination? {
        let deadline = Deadline(after: timeout)
        while true {
            if let ended = try reap() { return ended }
            if deadline.hasPassed { return nil }
            Waiting.pause(.milliseconds(2))
        }
    }

    /// SIGTERM, then SIGKILL if it has not ended within `grace`; reaps it. For `defer`.
    package func stop(grace: Duration = .seconds(5)) {
        guard (try? reap()) ?? nil == nil else { return }
        try? signal(.terminate)
        if (try? waitForExit(timeout: grace)) ?? nil == nil {
            try? signal(.kill)
            _ = try? waitForExit(timeout: grace)
        }
    }

    private func reap() throws -> Termination? {
        if let termination { return termination }
        termination = try child.poll()
        return termination
    }

    deinit {
        if termination == nil {
            try? child.send(.kill)
            _ = try? child.wait()
        }
    }
}

/// The daemon process misbehaved during start-up.
package struct DaemonProcessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
