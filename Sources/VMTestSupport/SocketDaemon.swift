/// The built `vmd` running on a socket in its own temporary directory, with its own state
/// directory (`--state-dir`), as an ``RPCEndpoint``.
public final class SocketDaemon: RPCEndpoint {
    /// Where its socket, log, config and (by default) state live.
    public let directory: TemporarySocketDirectory
    /// The process, for signals and its log.
    public let process: DaemonProcess
    /// The state directory passed as `--state-dir`.
    public let stateDirectory: String

    public var transport: RPCTransport { .socket }
    public var socketPath: String { process.socketPath }

    /// Starts vmd with `arguments` in a fresh directory. `socketPath` and `stateDirectory`
    /// default to places inside it; pass a previous daemon's to restart "the same" daemon
    /// (its log and config still go to this one's own directory).
    public init(arguments: [String] = [], socketPath: String? = nil, stateDirectory: String? = nil) throws {
        let directory = try TemporarySocketDirectory()
        let state = stateDirectory ?? directory.file("state")
        self.directory = directory
        self.stateDirectory = state
        do {
            process = try DaemonProcess.start(
                socketPath: socketPath ?? directory.socketPath, arguments: ["--state-dir", state] + arguments,
                directory: directory)
        } catch {
            directory.remove()
            throw error
        }
    }

    public func connect() async throws -> RPCSession {
        try RPCSession(socketPath: socketPath)
    }

    /// Stops vmd (if it still runs) and removes the directory, the state it wrote included.
    public func stop() {
        process.stop()
        directory.remove(["state/sendlist-uploads.ndjson", "state/vmd/vmd.log", "state/vmd", "state", "config"])
    }
}
