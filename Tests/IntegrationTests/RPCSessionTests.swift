import JSONCore
import Testing
import VMTestSupport

/// RPCSession's own rules, on a scripted channel: how replies are matched, what stays queued,
/// and which messages it refuses.
@Suite("RPCSession on a scripted channel", .offTheCooperativePool)
struct RPCSessionTests {
    /// Records what the session sends and hands out scripted messages, in order; with none
    /// left, a read times out at once, or reports the connection closed if `closesAtEnd`.
    private final class ScriptedChannel: RPCChannel {
        var sent: [String] = []
        var script: [JSONValue]
        let closesAtEnd: Bool

        init(_ script: [String], closesAtEnd: Bool) throws {
            self.script = try script.map { try JSONValue(parsing: $0) }
            self.closesAtEnd = closesAtEnd
        }

        func send(_ frame: String) async throws { sent.append(frame) }

        func receive(timeout: Duration) async throws -> JSONValue {
            guard !script.isEmpty else {
                if closesAtEnd { throw RPCSessionError.closed("the script hung up") }
                throw RPCSessionError.timedOut("nothing more scripted")
            }
            return script.removeFirst()
        }

        func close() {}
    }

    private func session(
        _ script: [String], closesAtEnd: Bool = false, keepingEverythingRead: Bool = false
    ) throws -> (RPCSession, ScriptedChannel) {
        let channel = try ScriptedChannel(script, closesAtEnd: closesAtEnd)
        return (RPCSession(channel: channel, transport: .inMemory, keepingEverythingRead: keepingEverythingRead), channel)
    }

    @Test("call numbers its requests and returns the reply with their id; notifications before it stay queued")
    func repliesMatchedByID() async throws {
        let (session, channel) = try session([
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"value":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"value":7}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":null}"#,
        ])
        #expect(try await session.result("vm.get", ["instance": "c"]) == ["value": 7])
        #expect(session.queued == [["jsonrpc": "2.0", "method": "vm.output", "params": ["value": 1]]])
        #expect(try await session.call("vm.send") == ["jsonrpc": "2.0", "id": 2, "result": .null])
        #expect(try channel.sent.map { try JSONValue(parsing: $0) } == [
            ["jsonrpc": "2.0", "id": 1, "method": "vm.get", "params": ["instance": "c"]],
            ["jsonrpc": "2.0", "id": 2, "method": "vm.send"],
        ])
    }

    @Test("nextNotification takes the first of its method and leaves the others queued in order")
    func notificationsByMethod() async throws {
        let (session, _) = try session([
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"seq":1}}"#,
            #"{"jsonrpc":"2.0","method":"vm.closed","params":{"reason":"destroyed"}}"#,
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"seq":2}}"#,
        ])
        #expect(try await session.nextNotification("vm.closed")["params"] == ["reason": "destroyed"])
        #expect(try await session.nextNotification("vm.output")["params"] == ["seq": 1])
        #expect(try await session.nextMessage()["params"] == ["seq": 2])
        #expect(session.queued.isEmpty)
    }

    @Test("an error whose code and data.name disagree is refused, inside a batch too")
    func mismatchedErrorsRefused() async throws {
        let (single, _) = try session([
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-31002,"message":"No such type.","data":{"name":"unknownType"}}}"#,
        ])
        let refused = await #expect(throws: RPCSessionError.self) { try await single.call("vm.create") }
        #expect(refused?.description.hasPrefix("error code and data.name disagree") == true)

        let (batch, _) = try session([
            #"[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":2,"error":{"code":-31001,"message":"","data":{"name":"unknownType"}}}]"#,
        ])
        let emptyMessage = await #expect(throws: RPCSessionError.self) { try await batch.nextMessage() }
        #expect(emptyMessage?.description.hasPrefix("error without a message") == true)

        let (version, _) = try session([#"{"jsonrpc":"1.0","id":1,"result":null}"#])
        let wrongVersion = await #expect(throws: RPCSessionError.self) { try await version.nextMessage() }
        #expect(wrongVersion?.description.hasPrefix("not JSON-RPC 2.0") == true)
    }

    @Test("result throws an error reply quoting it, and failure throws on a success")
    func resultAndFailure() async throws {
        let (session, _) = try session([
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-31002,"message":"No instance.","data":{"name":"unknownInstance"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"destroyed":true}}"#,
            #"{"jsonrpc":"2.0","id":3,"error":{"code":-31002,"message":"No instance.","data":{"name":"unknownInstance"}}}"#,
        ])
        let errorReply = await #expect(throws: RPCSessionError.self) { try await session.result("vm.destroy") }
        #expect(errorReply?.description.contains("unknownInstance") == true)
        let notFailed = await #expect(throws: RPCSessionError.self) { try await session.failure("vm.destroy") }
        #expect(notFailed?.description.contains("did not fail") == true)
        #expect(try await session.failure("vm.destroy")["code"] == -31002)
    }

    @Test("a reply that never comes times out naming the id it waited for and what was queued")
    func timeoutSaysWhat() async throws {
        let (session, _) = try session([#"{"jsonrpc":"2.0","method":"vm.output","params":{"seq":1}}"#])
        let timedOut = await #expect(throws: RPCSessionError.self) { try await session.call("daemon.info", timeout: .zero) }
        #expect(timedOut?.description.contains("the reply to id 1") == true)
        #expect(timedOut?.description.contains("vm.output") == true)
        #expect(try await session.takeAvailable().count == 1)
    }

    @Test("a session keeping everything read records replies, notifications and batches in arrival order, taken or not")
    func everythingReadIsKeptInOrder() async throws {
        let script = [
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"seq":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"value":7}}"#,
            #"[{"jsonrpc":"2.0","id":5,"result":null}]"#,
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"seq":2}}"#,
        ]
        let (kept, _) = try session(script, keepingEverythingRead: true)
        #expect(kept.keepsEverythingRead)
        try await kept.result("vm.get")
        #expect(try await kept.nextMessage { $0["params"]?["seq"] == 2 }["method"] == "vm.output")
        #expect(try kept.everythingRead == script.map { try JSONValue(parsing: $0) })
        #expect(try kept.queued == [script[0], script[2]].map { try JSONValue(parsing: $0) })
        #expect(kept.notificationsRead("vm.output").map { $0["params"]?["seq"] } == [1, 2])

        let (plain, _) = try session(script)
        try await plain.result("vm.get")
        try await plain.nextMessage { $0["params"]?["seq"] == 2 }
        #expect(!plain.keepsEverythingRead && plain.everythingRead.isEmpty && plain.queued.count == 2)
    }

    @Test("waitForClose queues what arrives before the server hangs up, and answers false when reads only time out")
    func waitForCloseTellsAHangUpFromSilence() async throws {
        let notification = #"{"jsonrpc":"2.0","method":"vm.closed","params":{"reason":"destroyed"}}"#
        let (closing, _) = try session([notification], closesAtEnd: true)
        #expect(try await closing.waitForClose())
        #expect(try closing.queued == [JSONValue(parsing: notification)])
        let (silent, _) = try session([notification])
        #expect(try await !silent.waitForClose(timeout: .seconds(1)))
        #expect(silent.queued.count == 1)
    }
}
