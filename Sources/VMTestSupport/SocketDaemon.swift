/// The built `vmd` running on a socket in its own temporary directory, with its own state
/// directory (`--state-dir`), as an ``RPCEndpoint``.
package final class SocketDaemon: RPCEndpoint {
    /// Where its socket, log, config and (by default) state live.
    package let directory: TemporarySocketDirectory
    /// The process, for signals and its log.
    package let process: DaemonProcess
    /// The state directory passed as `--state-dir`.
    package let stateDirectory: String

    package var transport: RPCTransport { .socket }
    package var socketPath: String { process.socketPath }

    private init(directory: TemporarySocketDirectory, process: DaemonProcess, stateDirectory: String) {
        self.directory = directory
        self.process = process
        self.stateDirectory = stateDirectory
    }

    /// Starts vmd with `arguments` in a fresh directory and returns once it listens.
    /// `socketPath` and `stateDirectory` default to places inside the directory; pass a
    /// previous daemon's to restart "the same" daemon (its log and config still go to this
    /// one's own directory). The wait for readiness yields to other tasks between its
    /// probes.
    /// - Throws: when vmd cannot start, exits early or does not listen within
    ///   ``Waiting/defaultTimeout`` (its log is in the error).
    package static func start(
        arguments: [String] = [], socketPath: String? = nil, stateDirectory: String? = nil
    ) async throws -> SocketDaemon {
        let directory = try TemporarySocketDirectory()
        let state = stateDirectory ?? directory.file("state")
        let daemon: SocketDaemon
        do {
            let process = try DaemonProcess.start(
                socketPath: socketPath ?? directory.socketPath, arguments: ["--state-dir", state] + arguments,
                directory: directory, waitUntilReady: false)
            daemon = SocketDaemon(directory: directory, process: process, stateDirectory: state)
        } catch {
            directory.remove()
            throw error
        }
        do {
            let deadline = Deadline(after: Waiting.defaultTimeout)
            while try !daemon.process.probeOnce() {
                if deadline.hasPassed {
                    throw DaemonProcessError("vmd did not listen within \(Waiting.defaultTimeout); its log:\n" + daemon.process.log)
                }
                Waiting.pause(.milliseconds(2))
                await Task.yield()
            }
        } catch {
            daemon.stop()
            throw error
        }
        return daemon
    }

    package func connect() async throws -> RPCSession {
        try RPCSession(socketPath: socketPath)
    }

    /// Stops vmd (if it still runs) and removes the directory, the state it wrote included.
    package func stop() {
        process.stop()
        directory.remove([
            "state/sendlist-uploads.ndjson", "state/instances.vmdlog", "state/instances.set-aside", "state/vmd/vmd.log", "state/vmd",
            "state", "config",
        ])
    }
}
