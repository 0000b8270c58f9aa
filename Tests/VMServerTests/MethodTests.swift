import JSONCore
import Testing
import VMProtocol
import VMServer

@Suite("Daemon methods")
struct DaemonMethodTests {
    @Test("daemon.info reports identity, counts and every limit")
    func info() throws {
        let fixture = try ServerFixture(limits: VMLimits(maxInstances: 7))
        let client = fixture.connect()
        _ = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally"}"#))
        fixture.scheduler.advance(by: .milliseconds(1500))
        let info = client.call("daemon.info")
        #expect(info["version"] == "0.1.0-test")
        #expect(info["protocol"] == 1)
        #expect(info["bootId"] == "0123456789abcdef0123456789abcdef")
        #expect(info["pid"] == 4242)
        #expect(info["uptimeSeconds"]?.doubleValue == 1.5)
        #expect(info["instances"] == 1)
        #expect(info["connections"] == 2)
        #expect(info["socket"] == "/tmp/vmd-test.sock")
        #expect(info["slowClient"] == "coalesce")
        #expect(info["limits"] == json("""
            {"maxFrameBytes":1048576,"maxDepth":64,"maxConnections":4096,"maxInstances":7,
             "maxSubscriptionsPerConnection":1024,"maxBatchItems":256,"maxOutboundBytes":4194304,
             "sessionGraceMs":60000,"maxDetachedSessions":100}
            """))
    }

    @Test("rpc.discover serves the embedded OpenRPC document")
    func discover() throws {
        let fixture = try ServerFixture()
        let document = fixture.connect().call("rpc.discover")
        #expect(document == (try JSONValue(parsing: OpenRPCDocument.text)))
    }

    @Test("daemon.shutdown replies then asks the daemon to stop; other uids are refused")
    func shutdownRequest() throws {
        let fixture = try ServerFixture()
        let stranger = fixture.connect(uid: 1001)
        let error = stranger.callFailing("daemon.shutdown")
        #expect(error["code"] == -31015)
        #expect(error["data"] == json(#"{"name":"permissionDenied","method":"daemon.shutdown"}"#))
        #expect(fixture.log.shutdownRequests == 0)
        #expect(fixture.connect().call("daemon.shutdown") == json(#"{"stopping":true}"#))
        #expect(fixture.log.shutdownRequests == 1)
    }
}

@Suite("Instance methods")
struct InstanceMethodTests {
    @Test("vm.types lists every type in name order, or one, or fails unknownType")
    func types() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        let all = client.call("vm.types")["types"]?.arrayValue ?? []
        #expect(all.compactMap { $0["name"]?.stringValue } == ["Family", "Loader", "Slow", "Tally"])
        let one = client.call("vm.types", json(#"{"type":"Tally"}"#))["types"]?.arrayValue ?? []
        #expect(one.count == 1)
        #expect(one.first?["outputs"]?[0] == json(#"{"name":"count","summary":"The number.","kind":"state","schema":{"type":"integer"}}"#))
        let error = client.callFailing("vm.types", json(#"{"type":"Conter"}"#))
        #expect(error["code"] == -31001)
        #expect(error["data"] == json(#"{"name":"unknownType","type":"Conter"}"#))
    }

    @Test("vm.create generates per-type ids, or takes the client's")
    func createIDs() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        #expect(client.call("vm.create", json(#"{"type":"Tally"}"#))["instance"] == "tally-1")
        #expect(client.call("vm.create", json(#"{"type":"Tally","id":"tally-2"}"#))["instance"] == "tally-2")
        #expect(client.call("vm.create", json(#"{"type":"Tally"}"#))["instance"] == "tally-3")
        #expect(client.call("vm.create", json(#"{"type":"Slow","scope":"connection"}"#))
            == json(#"{"instance":"slow-1","type":"Slow","scope":"connection"}"#))
    }

    @Test("vm.create errors: instanceExists, invalidParams id, invalidValue args, unknownType, maxInstances")
    func createErrors() throws {
        let fixture = try ServerFixture(limits: VMLimits(maxInstances: 2))
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"c1"}"#))
        let exists = client.callFailing("vm.create", json(#"{"type":"Tally","id":"c1"}"#))
        #expect(exists["code"] == -31011)
        #expect(exists["data"] == json(#"{"name":"instanceExists","instance":"c1"}"#))
        let badID = client.callFailing("vm.create", json(#"{"type":"Tally","id":"no spaces"}"#))
        #expect(badID["code"] == -32602)
        #expect(badID["data"]?["path"] == "/id")
        let badArgs = client.callFailing("vm.create", json(#"{"type":"Tally","args":{"start":"five"}}"#))
        #expect(badArgs["code"] == -31006)
        #expect(badArgs["data"] == json(#"{"name":"invalidValue","path":"/start","expected":"integer","got":"string"}"#))
        let unknown = client.callFailing("vm.create", json(#"{"type":"Nope"}"#))
        #expect(unknown["code"] == -31001)
        _ = client.call("vm.create", json(#"{"type":"Tally"}"#))
        let limit = client.callFailing("vm.create", json(#"{"type":"Tally"}"#))
        #expect(limit["data"] == json(#"{"name":"limitReached","limit":"maxInstances","value":2}"#))
        #expect(fixture.host.count == 2)
    }

    @Test("vm.destroy destroys, then the id is unknown")
    func destroy() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        #expect(client.call("vm.destroy", json(#"{"instance":"t"}"#)) == json(#"{"destroyed":true}"#))
        let error = client.callFailing("vm.destroy", json(#"{"instance":"t"}"#))
        #expect(error["code"] == -31002)
        #expect(error["data"] == json(#"{"name":"unknownInstance","instance":"t"}"#))
        #expect(error["message"] == #"No instance "t"; vm.list shows the live instances."#)
    }

    @Test("vm.list shows instances in creation order with scope, subscribers and parent")
    func list() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"a","subscribe":{}}"#))
        _ = client.call("vm.create", json(#"{"type":"Family","id":"f","scope":"connection"}"#))
        _ = client.call("vm.subscribe", json(#"{"instance":"a"}"#))
        #expect(client.call("vm.list") == json("""
            {"instances":[
              {"instance":"a","type":"Tally","scope":"daemon","subscribers":2},
              {"instance":"f","type":"Family","scope":"connection","subscribers":0},
              {"instance":"tally-1","type":"Tally","scope":"daemon","subscribers":0,"parent":"f"}]}
            """))
    }

    @Test("vm.send pushes a value; omitted means the schema default")
    func send() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = client.call("vm.send", json(#"{"instance":"t","input":"add","value":5}"#))
        _ = client.call("vm.send", json(#"{"instance":"t","input":"add"}"#))
        _ = client.call("vm.send", json(#"{"instance":"t","input":"decrement"}"#))
        #expect(client.call("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":5}"#))
    }

    @Test("vm.send errors: unknownInstance, unknownInput, invalidValue")
    func sendErrors() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        #expect(client.callFailing("vm.send", json(#"{"instance":"x","input":"add"}"#))["code"] == -31002)
        let input = client.callFailing("vm.send", json(#"{"instance":"t","input":"ad"}"#))
        #expect(input["data"] == json(#"{"name":"unknownInput","instance":"t","input":"ad"}"#))
        #expect(input["code"] == -31003)
        let value = client.callFailing("vm.send", json(#"{"instance":"t","input":"set","value":"ten"}"#))
        #expect(value["code"] == -31006)
        #expect(value["data"] == json(#"{"name":"invalidValue","path":"","expected":"integer","got":"string"}"#))
        #expect(value["message"] == #"Invalid value for input "set" of t: expected integer, got string."#)
    }

    @Test("a fire-and-forget vm.send that fails produces vm.error with the call's members")
    func sendNotificationError() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        client.notify("vm.send", json(#"{"instance":"t","input":"set","value":"ten"}"#))
        let notes = client.take()
        #expect(notes.count == 1)
        #expect(notes.first?["method"] == "vm.error")
        #expect(notes.first?["params"]?["method"] == "vm.send")
        #expect(notes.first?["params"]?["instance"] == "t")
        #expect(notes.first?["params"]?["input"] == "set")
        #expect(notes.first?["params"]?["error"]?["code"] == -31006)
        client.notify("vm.send", json(#"{"instance":"gone","input":"add"}"#))
        #expect(client.take().first?["params"]?["error"]?["data"]?["name"] == "unknownInstance")
        client.notify("vm.send", json(#"{"instance":"t","input":"add"}"#))
        #expect(client.take().isEmpty)
    }

    @Test("vm.get errors: notStateOutput, unknownOutput")
    func getErrors() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        _ = client.call("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        let event = client.callFailing("vm.get", json(#"{"instance":"t","output":"milestone"}"#))
        #expect(event["code"] == -31013)
        #expect(event["data"] == json(#"{"name":"notStateOutput","instance":"t","output":"milestone"}"#))
        let unknown = client.callFailing("vm.get", json(#"{"instance":"t","output":"cont"}"#))
        #expect(unknown["code"] == -31004)
        #expect(unknown["data"] == json(#"{"name":"unknownOutput","instance":"t","output":"cont"}"#))
    }
}
