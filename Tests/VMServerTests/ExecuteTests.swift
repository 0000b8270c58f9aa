import JSONCore
import Testing
import VMProtocol
import VMServer

@Suite("vm.execute, $/cancelRequest and timeoutMs")
struct ExecuteTests {
    /// A fixture with `s`, a Slow instance whose actions take `delayMs`.
    func slow(delayMs: Int = 100) throws -> (ServerFixture, TestClient) {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Slow","id":"s","args":{"delayMs":\#(delayMs)}}"#))
        return (fixture, client)
    }

    @Test("answers the action's element when it finishes; other calls are answered meanwhile")
    func success() throws {
        let (fixture, client) = try slow()
        client.write(#"{"jsonrpc":"2.0","id":"run","method":"vm.execute","params":{"instance":"s","action":"work","value":42}}"#)
        #expect(client.take().isEmpty)
        #expect(client.call("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":true}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(client.take() == [json(#"{"jsonrpc":"2.0","id":"run","result":{"value":42}}"#)])
    }

    @Test("a disabled or running action answers actionNotEnabled at once")
    func notEnabled() throws {
        let (_, client) = try slow()
        let locked = client.callFailing("vm.execute", json(#"{"instance":"s","action":"locked"}"#))
        #expect(locked["code"] == -31007)
        #expect(locked["data"] == json(#"{"name":"actionNotEnabled","instance":"s","action":"locked"}"#))
        client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        let running = client.callFailing("vm.execute", json(#"{"instance":"s","action":"work","value":2}"#))
        #expect(running["code"] == -31007)
    }

    @Test("a failing action answers actionFailed with the underlying error in data.error")
    func failed() throws {
        let (fixture, client) = try slow()
        let id = client.request("vm.execute", json(#"{"instance":"s","action":"fail"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        let error = try #require(client.response(to: id)?["error"])
        #expect(error["code"] == -31008)
        #expect(error["data"] == json(#"{"name":"actionFailed","instance":"s","action":"fail","error":{"message":"It broke.","reason":"test"}}"#))
        #expect(error["message"] == #"Action "fail" of s failed: It broke."#)
    }

    @Test("unknownAction and invalidValue are answered at once")
    func badCalls() throws {
        let (_, client) = try slow()
        let action = client.callFailing("vm.execute", json(#"{"instance":"s","action":"wrk"}"#))
        #expect(action["data"] == json(#"{"name":"unknownAction","instance":"s","action":"wrk"}"#))
        let value = client.callFailing("vm.execute", json(#"{"instance":"s","action":"work","value":"x"}"#))
        #expect(value["code"] == -31006)
        #expect(client.callFailing("vm.execute", json(#"{"instance":"nope","action":"work"}"#))["code"] == -31002)
    }

    @Test("timeoutMs cancels the execution and answers actionTimedOut; the action is enabled again")
    func timeout() throws {
        let (fixture, client) = try slow()
        let id = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":30}"#))
        fixture.scheduler.advance(by: .milliseconds(30))
        let error = try #require(client.response(to: id)?["error"])
        #expect(error["code"] == -31009)
        #expect(error["data"] == json(#"{"name":"actionTimedOut","instance":"s","action":"work","timeoutMs":30}"#))
        #expect(client.call("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":false}"#))
        fixture.scheduler.advance(by: .milliseconds(200))
        #expect(client.take().isEmpty, "exactly one reply: the cancelled work never answers")
    }

    @Test("a timeout that does not expire changes nothing")
    func timeoutNotReached() throws {
        let (fixture, client) = try slow()
        let id = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":5,"timeoutMs":500}"#))
        fixture.scheduler.advance(by: .milliseconds(1000))
        #expect(client.response(to: id)?["result"] == json(#"{"value":5}"#))
        #expect(client.take().isEmpty)
    }

    @Test("$/cancelRequest disposes the execution and gives exactly one reply, -32800")
    func cancel() throws {
        let (fixture, client) = try slow()
        client.write(#"{"jsonrpc":"2.0","id":14,"method":"vm.execute","params":{"instance":"s","action":"work","value":1}}"#)
        client.notify("$/cancelRequest", json(#"{"id":14}"#))
        #expect(client.take() == [json(#"{"jsonrpc":"2.0","id":14,"error":{"code":-32800,"message":"Request cancelled by $/cancelRequest.","data":{"name":"requestCancelled"}}}"#)])
        #expect(client.call("vm.get", json(#"{"instance":"s","output":"busy"}"#)) == json(#"{"value":false}"#))
        client.notify("$/cancelRequest", json(#"{"id":14}"#))
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(client.take().isEmpty)
    }

    @Test("a cancel sent as a request is answered null after the cancelled call; unknown ids are ignored")
    func cancelAsRequest() throws {
        let (_, client) = try slow()
        client.write(#"{"jsonrpc":"2.0","id":"a","method":"vm.execute","params":{"instance":"s","action":"work","value":1}}"#)
        client.write(#"{"jsonrpc":"2.0","id":"c","method":"$/cancelRequest","params":{"id":"a"}}"#)
        let messages = client.take()
        #expect(messages.map { $0["id"] } == ["a", "c"])
        #expect(messages[0]["error"]?["code"] == -32800)
        #expect(messages[1]["result"] == .null)
        #expect(client.call("$/cancelRequest", json(#"{"id":999}"#)) == .null)
        #expect(client.callFailing("$/cancelRequest", json(#"{"id":true}"#))["code"] == -32602)
    }

    @Test("a cancel from another connection does not touch this one's call")
    func cancelIsPerConnection() throws {
        let (fixture, client) = try slow()
        let other = fixture.connect()
        let id = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":3}"#))
        other.notify("$/cancelRequest", json(#"{"id":\#(id)}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(client.response(to: id)?["result"] == json(#"{"value":3}"#))
    }

    @Test("destroying the instance answers its pending call unknownInstance; at shutdown shuttingDown")
    func destroyedWhilePending() throws {
        let (fixture, client) = try slow()
        let first = client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        _ = client.call("vm.destroy", json(#"{"instance":"s"}"#))
        #expect(client.response(to: first)?["error"]?["data"] == json(#"{"name":"unknownInstance","instance":"s"}"#))
        _ = client.call("vm.create", json(#"{"type":"Slow","id":"s2"}"#))
        let second = client.request("vm.execute", json(#"{"instance":"s2","action":"work","value":1}"#))
        fixture.server.shutdown()
        #expect(client.response(to: second)?["error"]?["code"] == -31014)
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(client.take().isEmpty)
    }

    @Test("when the connection closes first, the execution is cancelled and nothing is written")
    func connectionClosed() throws {
        let (fixture, client) = try slow()
        let watcher = fixture.connect()
        _ = watcher.call("vm.subscribe", json(#"{"instance":"s","outputs":["busy"],"replay":false}"#))
        client.request("vm.execute", json(#"{"instance":"s","action":"work","value":1,"timeoutMs":50}"#))
        client.close()
        fixture.scheduler.advance(by: .milliseconds(500))
        #expect(client.sink.messages.isEmpty)
        #expect(watcher.take().map(output) == ["sub-1 #1 busy=true", "sub-1 #2 busy=false"])
    }

    @Test("a fire-and-forget vm.execute reports failure with vm.error carrying the action")
    func notificationFailure() throws {
        let (fixture, client) = try slow()
        client.notify("vm.execute", json(#"{"instance":"s","action":"fail"}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        let notes = client.take()
        #expect(notes.count == 1)
        #expect(notes.first?["method"] == "vm.error")
        #expect(notes.first?["params"]?["method"] == "vm.execute")
        #expect(notes.first?["params"]?["action"] == "fail")
        #expect(notes.first?["params"]?["error"]?["code"] == -31008)
        client.notify("vm.execute", json(#"{"instance":"s","action":"work","value":1}"#))
        fixture.scheduler.advance(by: .milliseconds(100))
        #expect(client.take().isEmpty, "a successful fire-and-forget execute writes nothing")
    }
}
