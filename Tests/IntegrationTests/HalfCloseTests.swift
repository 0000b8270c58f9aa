import JSONCore
import Posix
import Testing
import VMTestSupport

/// PROTOCOL.md §3, "End of input": vmd closes a connection whose peer shut down its writing
/// side as soon as nothing is left to do for it, and not before.
@Suite("vmd closes a half-closed connection once nothing is pending")
struct HalfCloseTests {
    /// How long a connection that must stay open is watched for an unwanted close. Not a
    /// readiness wait: the assertion is that nothing happens within it.
    private static let stillOpenWindow = Duration.milliseconds(300)

    @Test("after the replies are written, a half-closed connection with nothing pending reads end of file")
    func closesWhenIdle() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: vmd.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"vm.types"}"#)
        try client.sendLine(#"{"jsonrpc":"2.0","method":"vm.list"}"#)
        try client.finishWriting()
        #expect(try client.readMessage()["id"]?.intValue == 1)
        #expect(try client.waitForClose())
        #expect(vmd.process.log.contains("peer finished writing and nothing is pending"))
    }

    @Test("a half-closed connection that sent nothing at all is closed too")
    func closesWhenSilent() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: vmd.socketPath)
        defer { client.close() }
        try client.finishWriting()
        #expect(try client.waitForClose())
    }

    @Test("a pending vm.execute keeps a half-closed connection open until its reply is written")
    func pendingExecuteKeepsItOpen() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let other = try await vmd.connect()
        defer { other.close() }
        try await other.call("vm.create", ["type": "Login", "id": "slow", "args": ["latencyMs": 600_000]])
        try await other.call("vm.send", ["instance": "slow", "input": "email", "value": "demo@example.com"])
        try await other.call("vm.send", ["instance": "slow", "input": "password", "value": "secret"])

        let client = try SocketClient.connect(path: vmd.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":7,"method":"vm.execute","params":{"instance":"slow","action":"submit"}}"#)
        try client.finishWriting()
        #expect(try !client.waitForClose(timeout: Self.stillOpenWindow))
        #expect(try await other.result("daemon.info")["connections"]?.intValue == 2)

        // Destroying the instance answers the execution; then nothing is pending.
        try await other.call("vm.destroy", ["instance": "slow"])
        let reply = try client.readMessage()
        #expect(reply["id"]?.intValue == 7)
        #expect(reply["error"] != nil)
        #expect(try client.waitForClose())
    }

    @Test("an open subscription keeps a half-closed connection open and fed; its end closes it")
    func subscriptionKeepsItOpen() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let other = try await vmd.connect()
        defer { other.close() }
        try await other.call("vm.create", ["type": "Counter", "id": "c1"])

        let client = try SocketClient.connect(path: vmd.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"vm.subscribe","params":{"instance":"c1","outputs":["count"]}}"#)
        try client.finishWriting()
        #expect(try client.readMessage()["result"]?["subscription"]?.stringValue != nil)
        #expect(try client.readMessage()["params"]?["replay"] == .bool(true))
        #expect(try !client.waitForClose(timeout: Self.stillOpenWindow))

        // Still delivered to after the half-close.
        try await other.call("vm.send", ["instance": "c1", "input": "increment"])
        let output = try client.readMessage()
        #expect(output["method"]?.stringValue == "vm.output")
        #expect(output["params"]?["value"]?.intValue == 1)

        // The instance goes, so does the subscription: vm.closed, then end of file.
        try await other.call("vm.destroy", ["instance": "c1"])
        #expect(try client.readMessage()["method"]?.stringValue == "vm.closed")
        #expect(try client.waitForClose())
    }

    @Test("an open monitor keeps a half-closed connection open")
    func monitorKeepsItOpen() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: vmd.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"daemon.monitor"}"#)
        try client.finishWriting()
        #expect(try client.readMessage()["result"]?["monitor"]?.stringValue != nil)
        #expect(try !client.waitForClose(timeout: Self.stillOpenWindow))
        let other = try await vmd.connect()
        defer { other.close() }
        try await other.call("daemon.info")
        #expect(try client.readMessage()["method"]?.stringValue == "daemon.message")
    }
}
