import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("vm.execute, $/cancelRequest and timeoutMs")
struct ExecuteTests {
    /// A fixture with `s`, a Slow instance whose actions take `delayMs`.
    func slow(delayMs: Int = 100) async throws -> (InMemoryServer, RPCSession) {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":\#(delayMs)}}"#))
        return (fixture, client)
    }

    @Test("answers the action's element when it finishes; other calls are answered meanwhile")
    func success() async throws {
        let (fixture, client) = try await slow()
        try await client.send(#"{"jsonrpc":"2.0","id":"run","method":"vm.execute","params":{"instance":"s","action":"work","value":42}}"#)
        #expect(try await client.takeAvailable().isEmpty)
        #expect(try await client.result("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":true}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(try await client.takeAvailable() == [json(#"{"jsonrpc":"2.0","id":"run","result":{"value":42}}"#)])
    }

    @Test("a disabled or running action answers actionNotEnabled at once")
    func notEnabled() async throws {
        let (_, client) = try await slow()
        let locked = try await client.failure("vm.execute", json(#"{"instance":"s","action":"locked"}"#))
        #expect(locked["code"] == -31007)
        #expect(locked["data"] == json(#"{"name":"actionNotEnabled","instance":"s","action":"locked"}"#))
        try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        let running = try await client.failure("vm.execute", json(#"{"instance":"s","action":"work","value":2}"#))
        #expect(running["code"] == -31007)
    }

    @Test("a failing action answers actionFailed with the underlying error in data.error")
    func failed() async throws {
        let (fixture, client) = try await slow()
        let id = try await client.request("vm.execute", json(#"{"instance":"s","action":"fail"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        let error = try #require(try await client.response(to: id)["error"])
        #expect(error["code"] == -31008)
        #expect(error["data"] == json(#"{"name":"actionFailed","instance":"s","action":"fail","error":{"message":"It broke.","reason":"test"}}"#))
        #expect(error["message"] == #"Action "fail" of s failed: It broke."#)
    }

    @Test("unknownAction and invalidValue are answered at once")
    func badCalls() async throws {
        let (_, client) = try await slow()
        let action = try await client.failure("vm.execute", json(#"{"instance":"s","action":"wrk"}"#))
        #expect(action["data"] == json(#"{"name":"unknownAction","instance":"s","action":"wrk"}"#))
        let value = try await client.failure("vm.execute", json(#"{"instance":"s","action":"work","value":"x"}"#))
        #expect(value["code"] == -31006)
        #expect(try await client.failure("vm.execute", json(#"{"instance":"nope","action":"work"}"#))["code"] == -31002)
    }

    @Test("timeoutMs cancels the execution and answers actionTimedOut; the action is enabled again")
    func timeout() async throws {
        let (fixture, client) = try await slow()
        let id = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":30}"#))
        fixture.scheduler.advance(by: .milliseconds(30))
        let error = try #require(try await client.response(to: id)["error"])
        #expect(error["code"] == -31009)
        #expect(error["data"] == json(#"{"name":"actionTimedOut","instance":"s","action":"work","timeoutMs":30}"#))
        #expect(try await client.result("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":false}"#))
        fixture.scheduler.advance(by: .milliseconds(200))
        #expect(try await client.takeAvailable().isEmpty, "exactly one reply: the cancelled work never answers")
    }

    @Test("a timeout that does not expire changes nothing")
    func timeoutNotReached() async throws {
        let (fixture, client) = try await slow()
        let id = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":5,"timeoutMs":500}"#))
        fixture.scheduler.advance(by: .milliseconds(1000))
        #expect(try await client.response(to: id)["result"] == json(#"{"value":5}"#))
        #expect(try await client.takeAvailable().isEmpty)
    }

    @Test("$/cancelRequest disposes the execution and gives exactly one reply, -32800")
    func cancel() async throws {
        let (fixture, client) = try await slow()
        try await client.send(#"{"jsonrpc":"2.0","id":14,"method":"vm.execute","params":{"instance":"s","action":"work","value":1}}"#)
        try await client.notify("$/cancelRequest", json(#"{"id":14}"#))
        #expect(try await client.takeAvailable() == [json(#"{"jsonrpc":"2.0","id":14,"error":{"code":-32800,"message":"Request cancelled by $/cancelRequest.","data":{"name":"requestCancelled"}}}"#)])
        #expect(try await client.result("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":false}"#))
        try await client.notify("$/cancelRequest", json(#"{"id":14}"#))
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(try await client.takeAvailable().isEmpty)
    }

    @Test("a cancel sent as a request is answered null after the cancelled call; unknown ids are ignored")
    func cancelAsRequest() async throws {
        let (_, client) = try await slow()
        try await client.send(#"{"jsonrpc":"2.0","id":"a","method":"vm.execute","params":{"instance":"s","action":"work","value":1}}"#)
        try await client.send(#"{"jsonrpc":"2.0","id":"c","method":"$/cancelRequest","params":{"id":"a"}}"#)
        let messages = try await client.takeAvailable()
        #expect(messages.map { $0["id"] } == ["a", "c"])
        #expect(messages[0]["error"]?["code"] == -32800)
        #expect(messages[1]["result"] == .null)
        #expect(try await client.result("$/cancelRequest", json(#"{"id":999}"#)) == .null)
        #expect(try await client.failure("$/cancelRequest", json(#"{"id":true}"#))["code"] == -32602)
    }

    @Test("a cancel from another connection does not touch this one's call")
    func cancelIsPerConnection() async throws {
        let (fixture, client) = try await slow()
        let other = fixture.open()
        let id = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":3}"#))
        try await other.notify("$/cancelRequest", json(#"{"id":\#(id)}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(try await client.response(to: id)["result"] == json(#"{"value":3}"#))
    }

    @Test("destroying the instance answers its pending call unknownInstance; at shutdown shuttingDown")
    func destroyedWhilePending() async throws {
        let (fixture, client) = try await slow()
        let first = try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        _ = try await client.result("vm.destroy", json(#"{"instance":"s"}"#))
        #expect(try await client.response(to: first)["error"]?["data"] == json(#"{"name":"unknownInstance","instance":"s"}"#))
        _ = try await client.result("vm.create", json(#"{"type":"Slow","id":"s2"}"#))
        let second = try await client.request("vm.execute", json(#"{"instance":"s2","action":"work","value":1}"#))
        fixture.server.shutdown()
        #expect(try await client.response(to: second)["error"]?["code"] == -31014)
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(try await client.takeAvailable().isEmpty)
    }

    @Test("when the connection closes first, the execution is cancelled and nothing is written")
    func connectionClosed() async throws {
        let (fixture, client) = try await slow()
        let watcher = fixture.open()
        _ = try await watcher.result("vm.subscribe", json(#"{"instance":"s","outputs":["busy"],"replay":false}"#))
        try await client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":50}"#))
        client.close()
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(client.sink.messages.isEmpty)
        #expect(try await watcher.takeAvailable().map(output) == ["sub-1 #1 busy=true", "sub-1 #2 busy=false"])
    }

    @Test("a fire-and-forget vm.execute reports failure with vm.error carrying the action")
    func notificationFailure() async throws {
        let (fixture, client) = try await slow()
        try await client.notify("vm.execute", json(#"{"instance":"s","action":"fail"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        let notes = try await client.takeAvailable()
        #expect(notes.count == 1)
        #expect(notes.first?["method"] == "vm.error")
        #expect(notes.first?["params"]?["method"] == "vm.execute")
        #expect(notes.first?["params"]?["action"] == "fail")
        #expect(notes.first?["params"]?["error"]?["code"] == -31008)
        try await client.notify("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(try await client.takeAvailable().isEmpty, "a successful fire-and-forget execute writes nothing")
    }
}
