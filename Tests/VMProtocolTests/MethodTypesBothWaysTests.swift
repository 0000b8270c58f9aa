import JSONCore
import Testing
import VMProtocol

/// The client encodes `Params` and decodes `Result` with the types the server decodes and
/// encodes: each direction must give back what the other wrote, and the client's bytes are
/// pinned to what VMClient and vmctl sent before they shared these types.
@Suite("Params and results work both ways")
struct MethodTypesBothWaysTests {
    @Test("every Params decodes back from its own encoding")
    func paramsRoundTrip() throws {
        let create = VMCreateMethod.Params(
            type: "Counter", id: "c1", args: ["start": 1], scope: .connection,
            subscribe: SubscribeOptions(outputs: ["count"], replay: false, patches: true))
        #expect(try VMCreateMethod.Params(create.jsonValue) == create)
        let bare = VMCreateMethod.Params(type: "Counter")
        #expect(try VMCreateMethod.Params(bare.jsonValue) == bare)
        let withDefaults = VMCreateMethod.Params(type: "Counter", subscribe: SubscribeOptions())
        #expect(try VMCreateMethod.Params(withDefaults.jsonValue) == withDefaults)
        let send = VMSendMethod.Params(instance: "c1", input: "increment", value: 2)
        #expect(try VMSendMethod.Params(send.jsonValue) == send)
        let execute = VMExecuteMethod.Params(instance: "c1", action: "reset", value: ["to": 0], timeoutMs: 500)
        #expect(try VMExecuteMethod.Params(execute.jsonValue) == execute)
        let withProgress = VMExecuteMethod.Params(instance: "s", action: "send", timeoutMs: 500, progress: true, resetTimeoutOnProgress: true)
        #expect(try VMExecuteMethod.Params(withProgress.jsonValue) == withProgress)
        let get = VMGetMethod.Params(instance: "c1", output: "count")
        #expect(try VMGetMethod.Params(get.jsonValue) == get)
        let recorded = VMCreateMethod.Params(type: "Follow", record: true)
        #expect(recorded.jsonValue == ["type": "Follow", "record": true])
        #expect(try VMCreateMethod.Params(recorded.jsonValue) == recorded)
        #expect(throws: WireError.self) { try VMCreateMethod.Params(["type": "Follow", "record": "yes"]) }
        #expect(try VMTapeMethod.Params(VMTapeMethod.Params(instance: "c1").jsonValue) == VMTapeMethod.Params(instance: "c1"))
        let subscribe = VMSubscribeMethod.Params(instance: "c1", options: SubscribeOptions(outputs: ["a", "b"], replay: false))
        #expect(try VMSubscribeMethod.Params(subscribe.jsonValue) == subscribe)
        #expect(try VMTypesMethod.Params(VMTypesMethod.Params(type: "Login").jsonValue) == VMTypesMethod.Params(type: "Login"))
        #expect(try VMTypesMethod.Params(VMTypesMethod.Params().jsonValue) == VMTypesMethod.Params())
        #expect(try VMDestroyMethod.Params(VMDestroyMethod.Params(instance: "c1").jsonValue) == VMDestroyMethod.Params(instance: "c1"))
        #expect(try VMUnsubscribeMethod.Params(VMUnsubscribeMethod.Params(subscription: "sub-1").jsonValue)
            == VMUnsubscribeMethod.Params(subscription: "sub-1"))
        #expect(try DaemonUnmonitorMethod.Params(DaemonUnmonitorMethod.Params(monitor: "mon-1").jsonValue)
            == DaemonUnmonitorMethod.Params(monitor: "mon-1"))
    }

    @Test("the client's params bytes are the ones it sent by hand before")
    func paramsBytes() {
        let create = VMCreateMethod.Params(
            type: "Counter", id: "c1", args: ["start": 1], scope: .connection,
            subscribe: SubscribeOptions(outputs: ["count"], replay: false, patches: true))
        #expect(create.jsonValue.encodedString()
            == #"{"type":"Counter","id":"c1","args":{"start":1},"scope":"connection","subscribe":{"outputs":["count"],"replay":false,"patches":true}}"#)
        #expect(VMCreateMethod.Params(type: "Counter", subscribe: SubscribeOptions()).jsonValue.encodedString()
            == #"{"type":"Counter","subscribe":{}}"#)
        #expect(VMExecuteMethod.Params(instance: "c1", action: "reset", value: 3, timeoutMs: 10).jsonValue.encodedString()
            == #"{"instance":"c1","action":"reset","value":3,"timeoutMs":10}"#)
        #expect(VMExecuteMethod.Params(instance: "s", action: "send", progress: true).jsonValue.encodedString()
            == #"{"instance":"s","action":"send","progress":true}"#)
        #expect(VMSendMethod.Params(instance: "c1", input: "increment").jsonValue.encodedString()
            == #"{"instance":"c1","input":"increment"}"#)
        #expect(VMSubscribeMethod.Params(instance: "c1", options: SubscribeOptions(outputs: ["count"], patches: true)).jsonValue.encodedString()
            == #"{"instance":"c1","outputs":["count"],"patches":true}"#)
        #expect(VMTypesMethod.Params().jsonValue == nil)
    }

    @Test("every Result decodes back from the server's encoding")
    func resultsRoundTrip() throws {
        let info = DaemonInfoMethod.Result(
            version: "1.2.3", bootId: "b", pid: 42, uptimeSeconds: 1.5, instances: 3, connections: 2,
            limits: VMLimits(maxFrameBytes: 4096, maxOutboundBytes: 65_536), socket: "/tmp/vmd.sock", slowClient: .disconnect)
        #expect(try DaemonInfoMethod.Result(json: info.jsonValue) == info)
        let created = VMCreateMethod.Result(instance: "c1", type: "Counter", scope: .connection, subscription: "sub-1")
        #expect(try VMCreateMethod.Result(json: created.jsonValue) == created)
        #expect(try VMCreateMethod.Result(json: VMCreateMethod.result(instance: "c1", type: "Counter", scope: .daemon, subscription: nil))
            == VMCreateMethod.Result(instance: "c1", type: "Counter", scope: .daemon))
        let summaries = [
            VMListMethod.Summary(instance: "l1", type: "SendList", scope: .daemon, subscribers: 1),
            VMListMethod.Summary(instance: "r1", type: "SendReceipt", scope: .connection, subscribers: 0, parent: "l1"),
        ]
        #expect(try VMListMethod.decodeResult(VMListMethod.result(summaries)) == summaries)
        #expect(try VMSubscribeMethod.Result(json: VMSubscribeMethod.result(subscription: "sub-9")).subscription == "sub-9")
        #expect(try DaemonMonitorMethod.Result(json: DaemonMonitorMethod.result(monitor: "mon-2")).monitor == "mon-2")
        #expect(try VMGetMethod.Result(json: VMGetMethod.result(value: .null)).value == .null)
        #expect(try VMExecuteMethod.Result(json: VMExecuteMethod.result(value: [1, 2])).value == [1, 2])
        let tape = VMTapeMethod.Result(lines: [["tape": 2, "type": "Counter"], ["event": "output", "t": 0, "output": "count", "value": 0]])
        #expect(try VMTapeMethod.Result(json: tape.jsonValue) == tape)
        #expect(tape.text == "{\"tape\":2,\"type\":\"Counter\"}\n{\"event\":\"output\",\"t\":0,\"output\":\"count\",\"value\":0}\n")
        #expect(throws: JSONDecodingError.self) { try VMTapeMethod.Result(json: ["tape": []]) }
        #expect(throws: JSONDecodingError.self) { try VMTapeMethod.Result(json: ["tape": [1]]) }
    }

    @Test("a result missing a member or with an unknown enum value is an error naming the member")
    func resultErrors() {
        #expect(throws: JSONDecodingError.self) { try VMGetMethod.Result(json: [:]) }
        do {
            _ = try VMListMethod.decodeResult(["instances": [["instance": "x", "type": "T", "scope": "galaxy"]]])
            Issue.record("an unknown scope decoded")
        } catch {
            #expect(error.path == JSONPath([.key("instances"), .index(0), .key("scope")]))
        }
    }

    @Test("limits the daemon leaves out keep the protocol's defaults; unknown ones are ignored")
    func lenientLimits() throws {
        let limits = try VMLimits(json: ["maxFrameBytes": 4096, "maxFutureThing": 1])
        #expect(limits == VMLimits(maxFrameBytes: 4096))
    }
}
