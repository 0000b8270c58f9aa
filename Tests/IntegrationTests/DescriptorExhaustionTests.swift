import JSONCore
import Posix
import Testing
import VMTestSupport

/// A real vmd at its open-file limit keeps running, keeps running
/// async work, and answers the clients it cannot take.
@Suite("vmd at its open-file limit", .serialized, .offTheCooperativePool)
struct DescriptorExhaustionTests {
    /// Starts vmd through `sh -c 'ulimit -n N; exec vmd ...'` when `openFileLimit` is given
    /// (the shell lowers both the soft and the hard limit, so vmd cannot raise it back).
    static func startDaemon(in directory: TemporarySocketDirectory, openFileLimit: Int? = nil) throws -> DaemonProcess {
        let vmd = try BuiltProducts.executable("vmd")
        let arguments = ["--socket", directory.socketPath, "--state-dir", directory.file("state"), "--log-level", "debug"]
        guard let openFileLimit else {
            return try DaemonProcess.start(
                socketPath: directory.socketPath, arguments: Array(arguments.dropFirst(2)), directory: directory)
        }
        return try DaemonProcess.start(
            socketPath: directory.socketPath,
            arguments: ["-c", #"ulimit -n \#(openFileLimit) && exec "$@""#, "sh", vmd] + arguments,
            directory: directory, executable: "/bin/sh", passSocketFlag: false)
    }

    /// A Login filled with the demo account, ready to `submit` (an async action).
    static func readyLogin(_ session: RPCSession) async throws -> String {
        let (login, _) = try await session.create("Login", args: ["latencyMs": 0], subscribe: false)
        try await session.send(login, "email", "demo@example.com")
        try await session.send(login, "password", "secret")
        return login
    }

    /// Opens `count` connections without reading from them.
    static func crowd(_ count: Int, at path: String) throws -> [SocketClient] {
        try (0..<count).map { _ in try SocketClient(path: path) }
    }

    @Test("under a 128-descriptor limit, 160 connections neither crash vmd nor stop a first async action")
    func lowLimitManyConnections() async throws {
        let directory = try TemporarySocketDirectory()
        let process = try Self.startDaemon(in: directory, openFileLimit: 128)
        defer {
            process.stop()
            directory.remove(["state", "config", "vmd.log"])
        }
        let session = try RPCSession(socketPath: directory.socketPath)
        defer { session.close() }
        let login = try await Self.readyLogin(session)
        let crowd = try Self.crowd(160, at: directory.socketPath)
        defer { crowd.forEach { $0.close() } }
        // Let the daemon accept what it can, then run the first async work of the process.
        Waiting.pause(.milliseconds(300))
        let outcome = try? await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(outcome?["result"] != nil, "\(outcome?.encodedString() ?? "no reply")")
        #expect(try process.child.poll() == nil, "vmd died; its log:\n\(process.log.suffix(2000))")
        // The last ones are over the clamped --max-connections: each is told so.
        let refusal = try crowd[crowd.count - 1].readMessage()
        #expect(refusal["error"]?["data"]?["limit"] == "maxConnections")
        #expect(refusal["error"]?["data"]?["value"] == .integer(128 - 64))
        #expect(process.log.contains("max-connections clamped"))
    }

    @Test(
        "out of descriptors, clients past the limit get the maxConnections error, the log says so once, async work still runs",
        .enabled(if: (try? FileSystem.info("/usr/bin/prlimit")) != nil, "needs util-linux prlimit"))
    func exhaustedDescriptorsRefuseClients() async throws {
        let directory = try TemporarySocketDirectory()
        let process = try Self.startDaemon(in: directory)
        defer {
            process.stop()
            directory.remove(["state", "config", "vmd.log"])
        }
        let session = try RPCSession(socketPath: directory.socketPath)
        defer { session.close() }
        let login = try await Self.readyLogin(session)
        // Lower the running daemon's limit under what --max-connections was clamped for, so
        // accepting runs out of descriptors before the connection limit is reached.
        let prlimit = try ChildProcess.spawn(
            "/usr/bin/prlimit", arguments: ["--pid", String(process.child.pid), "--nofile=48:48"])
        #expect(try prlimit.wait() == .exited(0))
        let crowd = try Self.crowd(80, at: directory.socketPath)
        defer { crowd.forEach { $0.close() } }
        let refusal = try crowd[crowd.count - 1].readMessage()
        #expect(refusal["id"] == .null)
        #expect(refusal["error"]?["data"]?["limit"] == "maxConnections")
        #expect(try crowd[crowd.count - 1].waitForClose())
        let outcome = try await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(outcome["result"] != nil, "\(outcome.encodedString())")
        #expect(try process.child.poll() == nil, "vmd died; its log:\n\(process.log)")
        let lines = process.log.split(separator: "\n").filter { $0.contains("out of file descriptors") }
        #expect(lines.count == 1, "\(lines)")
    }
}
