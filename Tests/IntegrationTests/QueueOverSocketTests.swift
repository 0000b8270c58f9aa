import JSONCore
import Testing
import VMTestSupport

/// The `queue` strategy over a real socket, on an app's daemon (greeterd's `Greeter.pause`,
/// Tests/TestApp/Greeter.swift): executions requested together run one after another and are
/// answered in the order they were requested, even when a later one would finish first.
@Suite("queue over the socket: executions answer in request order")
struct QueueOverSocketTests {
    @Test("a slow execution followed by two quick ones: the replies come 1, 2, 3, one each")
    func queuedExecutionsAnswerInOrder() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["state"]) }
        let daemon = try DaemonProcess.start(
            socketPath: directory.socketPath, arguments: ["--state-dir", directory.file("state")], directory: directory,
            executable: BuiltProducts.executable("greeterd"))
        defer { daemon.stop() }
        let session = try RPCSession(socketPath: directory.socketPath)
        defer { session.close() }
        try await session.result("vm.create", ["type": "Greeter", "id": "g"])
        try await session.send("""
            {"jsonrpc":"2.0","id":1,"method":"vm.execute","params":{"instance":"g","action":"pause","value":300}}
            {"jsonrpc":"2.0","id":2,"method":"vm.execute","params":{"instance":"g","action":"pause","value":1}}
            {"jsonrpc":"2.0","id":3,"method":"vm.execute","params":{"instance":"g","action":"pause","value":2}}
            """)
        var replies: [JSONValue] = []
        for _ in 0..<3 { replies.append(try await session.nextMessage()) }
        #expect(replies.map { $0["id"] } == [1, 2, 3])
        #expect(replies.map { $0["result"]?["value"] } == [300, 1, 2])
        // Nothing else: the next message is the answer to a new request.
        let ping = try await session.request("daemon.info")
        #expect(try await session.nextMessage()["id"] == ping)
    }
}
