import JSONCore
import Posix
import Testing
import VMTestSupport
@testable import VMTransport

/// Durable instances over the real socket: the real vmd, killed or stopped, started again on
/// the same state directory (PROTOCOL.md, "Durable instances").
@Suite("Durable instances survive kill -9, SIGTERM and idle exit; nothing else does", .offTheCooperativePool)
struct DurableInstanceTests {
    @Test("50 acknowledged increments then kill -9: the restarted daemon's durable Counter reads 50")
    func acknowledgedIncrementsSurviveKill() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let session = try await first.connect()
        let created = try await session.result("vm.create", ["type": "Counter", "id": "visits", "durable": true])
        #expect(created["durable"] == true)
        for _ in 0..<50 { _ = try await session.send("visits", "increment", 1) }
        try Self.kill(first)

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        let again = try await second.connect()
        #expect(try await again.get("visits", "count") == 50)
        let list = try await again.result("vm.list")
        #expect(list["instances"] == [["instance": "visits", "type": "Counter", "scope": "daemon", "subscribers": 0, "durable": true]])
    }

    @Test("pipelined increments cut by kill -9: the restarted count is at least what was acknowledged")
    func pipelinedAcknowledgementsSurviveKill() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        _ = try await first.connect().result("vm.create", ["type": "Counter", "id": "piped", "durable": true])
        let client = try SocketClient(path: first.socketPath)
        defer { client.close() }
        var requests: [UInt8] = []
        for index in 1...20_000 {
            requests += Array(#"{"jsonrpc":"2.0","id":\#(index),"method":"vm.send","params":{"instance":"piped","input":"increment"}}"#.utf8) + [10]
        }
        // Written on one thread while another reads the replies, so the kill lands mid-stream;
        // both block, so neither runs on the cooperative pool (see onOwnThread).
        let socket = client.socket
        let payload = requests
        let writer = Task { _ = try? await onOwnThread { try socket.writeAll(payload) } }
        // Acknowledged means synced: an fdatasync behind a busy disk can take seconds.
        let acknowledged = try await onOwnThread { try Self.countReplies(on: socket, atLeast: 5_000, eachWithin: .seconds(60)) }
        try Self.kill(first)
        _ = await writer.value

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        let count = try #require(try await second.connect().get("piped", "count").intValue)
        #expect(count >= acknowledged && count <= 20_000, "\(count) restored, \(acknowledged) acknowledged")
    }

    @Test("SIGTERM and a start bring back a Counter and a TodoList, whose ids are not handed out again")
    func sigtermAndStart() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let session = try await first.connect()
        _ = try await session.result("vm.create", ["type": "Counter", "id": "c", "args": ["start": 10], "durable": true])
        _ = try await session.send("c", "decrement", 3)
        _ = try await session.result("vm.create", ["type": "TodoList", "id": "todo", "durable": true])
        _ = try await session.send("todo", "add", "milk")
        _ = try await session.send("todo", "add", "eggs")
        _ = try await session.send("todo", "remove", 2)
        try first.process.signal(.terminate)
        #expect(try first.process.waitForExit(timeout: .seconds(10)) == .exited(0))

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        let again = try await second.connect()
        #expect(try await again.get("c", "count") == 7)
        _ = try await again.send("todo", "add", "bread")
        #expect(try await again.get("todo", "items") == [
            ["id": 1, "title": "milk", "done": false], ["id": 3, "title": "bread", "done": false],
        ])
    }

    @Test("with only durable instances left, --exit-when-idle exits and the next start brings them back")
    func idleExitAndStart() async throws {
        let directory = try TemporarySocketDirectory()
        let state = directory.file("state")
        defer { directory.remove(["state/" + DurableInstanceStore.fileName, "state", "config"]) }
        // Waited for and connected to without yielding: on a loaded machine the first probe
        // must not come after the idle second is over.
        let first = try DaemonProcess.start(
            socketPath: directory.socketPath, arguments: ["--state-dir", state, "--exit-when-idle", "1"], directory: directory)
        defer { first.stop() }
        let session = try RPCSession(socketPath: directory.socketPath)
        _ = try await session.result("vm.create", ["type": "Counter", "id": "idle", "durable": true])
        _ = try await session.send("idle", "set", 42)
        session.close()
        #expect(try first.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(first.log.contains("(--exit-when-idle)"))

        let second = try await SocketDaemon.start(socketPath: directory.socketPath, stateDirectory: state)
        defer { second.stop() }
        #expect(try await second.connect().get("idle", "count") == 42)
    }

    @Test("a destroyed durable instance stays destroyed and a non-durable one is gone after kill -9")
    func onlyLiveDurableInstancesComeBack() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let session = try await first.connect()
        _ = try await session.result("vm.create", ["type": "Counter", "id": "kept", "durable": true])
        _ = try await session.result("vm.create", ["type": "Counter", "id": "destroyed", "durable": true])
        _ = try await session.result("vm.create", ["type": "Counter", "id": "plain"])
        _ = try await session.result("vm.destroy", ["instance": "destroyed"])
        try Self.kill(first)

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        let list = try await second.connect().result("vm.list")
        #expect(list["instances"]?.arrayValue?.compactMap { $0["instance"]?.stringValue } == ["kept"])
    }

    @Test("durable with scope connection is invalidParams naming the conflict, and creates nothing")
    func durableNeedsDaemonScope() async throws {
        let daemon = try await SocketDaemon.start()
        defer { daemon.stop() }
        let session = try await daemon.connect()
        let error = try await session.failure("vm.create", ["type": "Counter", "scope": "connection", "durable": true])
        #expect(error["code"] == -32602)
        #expect(error["data"]?["path"] == "/durable")
        #expect(error["message"]?.stringValue?.contains("only daemon-scoped instances can be durable") == true, "\(error)")
        #expect(try await session.result("vm.list")["instances"] == [])
    }

    @Test("a damaged store restores its intact part, sets the rest aside and never restores a wrong value")
    func damagedStore() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let session = try await first.connect()
        _ = try await session.result("vm.create", ["type": "Counter", "id": "hurt", "durable": true])
        for _ in 0..<3 { _ = try await session.send("hurt", "increment", 1) }
        _ = try await session.result("vm.create", ["type": "Counter", "id": "whole", "durable": true])
        for _ in 0..<5 { _ = try await session.send("whole", "increment", 1) }
        try Self.kill(first)

        // Garbage over one of `hurt`'s middle records, and a torn write at the end.
        let path = first.stateDirectory + "/" + DurableInstanceStore.fileName
        var lines = try Self.lines(of: path)
        let target = try #require(lines.firstIndex { $0.contains("\"id\":\"hurt\"") && $0.contains("\"n\":3") })
        lines[target] = "this line was overwritten by a disk fault"
        try Self.write(lines.joined(separator: "\n") + "\n" + "1234abcd {\"op\":\"sa", to: path)

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        let again = try await second.connect()
        #expect(try await again.get("whole", "count") == 5)
        let hurt = try await again.failure("vm.get", ["instance": "hurt", "output": "count"])
        #expect(hurt["data"]?["name"] == "unknownInstance", "an instance with a lost record is not restored at all")
        let aside = try String(decoding: FileSystem.readFile(first.stateDirectory + "/" + DurableInstanceStore.setAsideFileName), as: UTF8.self)
        #expect(aside.contains("this line was overwritten by a disk fault"))
        #expect(aside.contains("torn last record"))
        #expect(aside.contains("\"instance\":\"hurt\""))
        #expect(second.process.log.contains("durable instance hurt: not restored"))
    }

    @Test("a store written by a later format version is set aside whole and the daemon starts empty")
    func storeFromTheFuture() async throws {
        let directory = try TemporarySocketDirectory()
        let state = directory.file("state")
        try FileSystem.makeDirectories(state, permissions: 0o700)
        var future: [UInt8] = []
        DurableInstanceStore.appendRecord(["format": "vmd-instances", "version": 99], to: &future)
        try Self.write(String(decoding: future, as: UTF8.self), to: state + "/" + DurableInstanceStore.fileName)

        let daemon = try await SocketDaemon.start(stateDirectory: state)
        defer {
            daemon.stop()
            directory.remove(["state/" + DurableInstanceStore.fileName + ".future", "state/" + DurableInstanceStore.fileName, "state"])
        }
        #expect(try await daemon.connect().result("vm.list")["instances"] == [])
        #expect(daemon.process.log.contains("from a later version of the daemon"))
        #expect(try FileSystem.readFile(state + "/" + DurableInstanceStore.fileName + ".future") == future, "kept whole")
    }

    @Test("a saved value of an upgraded type falls back to the default, the old bytes kept aside and logged")
    func upgradedTypeFallsBackToDefaults() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        let session = try await first.connect()
        _ = try await session.result("vm.create", ["type": "Counter", "id": "old", "args": ["start": 3], "durable": true])
        _ = try await session.send("old", "set", 77)
        try first.process.signal(.terminate)
        _ = try first.process.waitForExit(timeout: .seconds(10))

        // What an earlier build with a different count type would have left: version 1, a string.
        let path = first.stateDirectory + "/" + DurableInstanceStore.fileName
        var stored: [UInt8] = []
        DurableInstanceStore.appendRecord(["format": "vmd-instances", "version": 1], to: &stored)
        DurableInstanceStore.appendRecord([
            "op": "instance", "n": 1,
            "instance": ["id": "old", "type": "Counter", "args": ["start": 3], "saved": ["count": ["version": 1, "value": "seventy-seven"]]],
        ], to: &stored)
        try Self.write(String(decoding: stored, as: UTF8.self), to: path)

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        #expect(try await second.connect().get("old", "count") == 3)
        let aside = try String(decoding: FileSystem.readFile(first.stateDirectory + "/" + DurableInstanceStore.setAsideFileName), as: UTF8.self)
        #expect(aside.contains("seventy-seven"))
        #expect(second.process.log.contains("durable instance old: saved value 'count': the saved value no longer decodes"))
    }

    // MARK: Helpers

    /// SIGKILL, no goodbye.
    /// Reads replies (lines) from `socket` until at least `count` have come, each within
    /// `timeout` of the one before; returns how many whole lines were read.
    private static func countReplies(on socket: FileDescriptor, atLeast count: Int, eachWithin timeout: Duration) throws -> Int {
        var lines = 0
        while lines < count {
            guard try !socket.wait(for: .readable, timeout: timeout).isEmpty else {
                throw SocketClientError.timedOut("timed out after \(lines) replies")
            }
            guard let bytes = try socket.read(upTo: 65_536) else { continue }
            guard !bytes.isEmpty else { throw SocketClientError.closed("the daemon closed the connection after \(lines) replies") }
            lines += bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        return lines
    }

    private static func kill(_ daemon: SocketDaemon) throws {
        try daemon.process.signal(.kill)
        #expect(try daemon.process.waitForExit(timeout: .seconds(5)) == .signaled(.kill))
    }

    /// A new vmd on the first one's socket path and state directory.
    private static func restart(after first: SocketDaemon) async throws -> SocketDaemon {
        try await SocketDaemon.start(socketPath: first.socketPath, stateDirectory: first.stateDirectory)
    }

    private static func lines(of path: String) throws -> [String] {
        String(decoding: try FileSystem.readFile(path), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func write(_ text: String, to path: String) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate], mode: 0o600)
        try file.writeAll(Array(text.utf8))
        try file.close()
    }
}
