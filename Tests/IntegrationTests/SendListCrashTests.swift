import JSONCore
import Posix
import Testing
import VMTestSupport

/// SendList's store promise, checked the hard way: an upload whose `send` was acknowledged
/// survives `kill -9` of the daemon right after the reply, and a new daemon on the same state
/// directory (and the same socket path, whose file the killed one left behind) reads it back
/// through SendHistory exactly once.
@Suite("SendList uploads survive kill -9 of vmd", .offTheCooperativePool)
struct SendListCrashTests {
    @Test("an acknowledged send is read back once after kill -9 and a restart on the stale socket")
    func oneSendSurvivesKill() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        #expect(try await Self.send("Hello", to: ["ada@example.com"], on: first) == 1)
        try Self.kill(first)
        #expect(try FileSystem.info(first.socketPath)?.kind == .socket, "kill -9 leaves the socket file behind")

        let restarted = try await Self.restart(after: first)
        defer { restarted.stop() }
        #expect(try await Self.history(on: restarted) == [
            ["id": 1, "message": "Hello", "recipients": ["ada@example.com"]],
        ])
        #expect(try Self.storedRecordCount(in: first) == 1, "written once, not deduplicated on read")
    }

    @Test("two sends with a kill -9 between them are each read back once, ids continuing")
    func twoSendsAcrossKills() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        #expect(try await Self.send("one", to: ["ada@example.com"], on: first) == 1)
        try Self.kill(first)

        let second = try await Self.restart(after: first)
        defer { second.stop() }
        #expect(try await Self.send("two", to: ["bob@example.com", "cy@example.com"], on: second) == 2)
        try Self.kill(second)

        let third = try await Self.restart(after: first)
        defer { third.stop() }
        #expect(try await Self.history(on: third) == [
            ["id": 1, "message": "one", "recipients": ["ada@example.com"]],
            ["id": 2, "message": "two", "recipients": ["bob@example.com", "cy@example.com"]],
        ])
        #expect(try Self.storedRecordCount(in: first) == 2)
    }

    @Test("a send retried with its key after kill -9 and a restart answers with the first upload and stores nothing")
    func keyedRetryAcrossKill() async throws {
        let first = try await SocketDaemon.start()
        defer { first.stop() }
        #expect(try await Self.send("Hello", to: ["ada@example.com"], key: "retry-1", on: first) == 1)
        try Self.kill(first)

        let restarted = try await Self.restart(after: first)
        defer { restarted.stop() }
        #expect(try await Self.send("Hello", to: ["ada@example.com"], key: "retry-1", on: restarted) == 1)
        #expect(try await Self.send("Hello", to: ["ada@example.com"], key: "retry-2", on: restarted) == 2)
        #expect(try await Self.history(on: restarted) == [
            ["id": 1, "message": "Hello", "recipients": ["ada@example.com"], "key": "retry-1"],
            ["id": 2, "message": "Hello", "recipients": ["ada@example.com"], "key": "retry-2"],
        ])
        #expect(try Self.storedRecordCount(in: first) == 2)
    }

    /// The complete lines of the store file: SendHistory skips repeated ids, so this is what
    /// shows an upload was not written twice.
    private static func storedRecordCount(in daemon: SocketDaemon) throws -> Int {
        let bytes = try FileSystem.readFile(daemon.stateDirectory + "/sendlist-uploads.ndjson")
        #expect(bytes.last == UInt8(ascii: "\n"), "no torn record")
        return bytes.filter { $0 == UInt8(ascii: "\n") }.count
    }

    /// Creates a SendList on `daemon`, fills it and waits for `send`'s reply (the
    /// acknowledgement); the upload id it returned.
    private static func send(_ message: String, to recipients: [String], key: String? = nil, on daemon: SocketDaemon) async throws -> Int? {
        let session = try await daemon.connect()
        defer { session.close() }
        let (list, _) = try await session.create("SendList", subscribe: false)
        for recipient in recipients {
            try await session.send(list, "addRecipient", .string(recipient))
        }
        try await session.send(list, "message", .string(message))
        var params: JSONObject = ["instance": .string(list), "action": "send"]
        if let key { params["value"] = ["key": .string(key)] }
        let reply = try await session.call("vm.execute", .object(params))
        #expect(reply["result"]?["value"]?["type"] == "SendReceipt", "send: \(reply.encodedString())")
        return reply["result"]?["value"]?["uploadId"]?.intValue
    }

    /// SIGKILL, no goodbye: the daemon cannot flush, unlink or close anything.
    private static func kill(_ daemon: SocketDaemon) throws {
        try daemon.process.signal(.kill)
        #expect(try daemon.process.waitForExit(timeout: .seconds(5)) == .signaled(.kill))
    }

    /// A new vmd on the first one's socket path and state directory, with a directory of its
    /// own for its log and config (removed by its `stop`).
    private static func restart(after first: SocketDaemon) async throws -> SocketDaemon {
        try await SocketDaemon.start(socketPath: first.socketPath, stateDirectory: first.stateDirectory)
    }

    /// The uploads a new SendHistory loads at creation (its first live `uploads` value).
    private static func history(on daemon: SocketDaemon) async throws -> JSONValue? {
        let session = try await daemon.connect()
        defer { session.close() }
        let (history, sub) = try await session.create("SendHistory")
        _ = try await session.takeThrough(of: sub) { message in
            message["params"]?["output"] == "isLoading" && message["params"]?["value"] == false && message["params"]?["replay"] == nil
        }
        #expect(try await session.get(history, "isLoading") == false)
        return try await session.get(history, "uploads")
    }
}
