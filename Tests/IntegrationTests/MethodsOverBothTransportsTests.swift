import JSONCore
import Testing
import VMTestSupport

/// The protocol's methods and errors, each test run twice: against the in-memory server (the
/// transport-free `Server` on virtual time) and against the real vmd on its socket. What holds
/// for one and not the other is a transport bug.
@Suite("vmd's methods and errors over both transports")
struct MethodsOverBothTransportsTests {
    @Test("daemon.info reports the protocol, the counts and every limit", arguments: RPCTransport.allCases)
    func daemonInfo(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await session.result("vm.create", ["type": "Counter"])
        let info = try await session.result("daemon.info")
        #expect(info["protocol"] == 1)
        #expect(info["instances"] == 1)
        #expect(info["slowClient"] == "coalesce")
        #expect(info["bootId"]?.stringValue?.count == 32)
        #expect((info["uptimeSeconds"]?.doubleValue ?? -1) >= 0)
        #expect(info["version"]?.stringValue?.isEmpty == false)
        #expect(info["limits"] == (try JSONValue(parsing: """
            {"maxFrameBytes":1048576,"maxDepth":64,"maxConnections":4096,"maxInstances":100000,
             "maxSubscriptionsPerConnection":1024,"maxBatchItems":256,"maxOutboundBytes":4194304,
             "sessionGraceMs":60000,"maxDetachedSessions":100}
            """)))
    }

    @Test("vm.types lists the catalog in name order, or one type, or fails unknownType", arguments: RPCTransport.allCases)
    func types(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let all = try await session.result("vm.types")["types"]?.arrayValue ?? []
        let names = all.compactMap { $0["name"]?.stringValue }
        #expect(names == names.sorted())
        #expect(names.contains("Counter") && names.contains("Login") && names.contains("SendList"))
        let one = try await session.result("vm.types", ["type": "Counter"])["types"]?.arrayValue ?? []
        #expect(one.count == 1)
        #expect(one.first?["outputs"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["count"])
        #expect(try await session.call("vm.types", ["type": "Conter"]).errorCodeAndName == (-31001, "unknownType"))
    }

    @Test("vm.create numbers ids per type, takes the client's, and reports scope and subscription", arguments: RPCTransport.allCases)
    func create(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        #expect(try await session.result("vm.create", ["type": "Counter"])
            == ["instance": "counter-1", "type": "Counter", "scope": "daemon"])
        #expect(try await session.result("vm.create", ["type": "Counter", "id": "mine"])["instance"] == "mine")
        #expect(try await session.result("vm.create", ["type": "Counter", "scope": "connection", "subscribe": [:]])
            == ["instance": "counter-2", "type": "Counter", "scope": "connection", "subscription": "sub-1"])
        let replay = try await session.nextNotification("vm.output")
        #expect(replay["params"] == ["subscription": "sub-1", "instance": "counter-2", "output": "count", "value": 0, "seq": 1, "replay": true])
    }

    @Test("vm.send and vm.execute change what vm.get returns", arguments: RPCTransport.allCases)
    func sendExecuteGet(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (counter, _) = try await session.create("Counter", args: ["start": 5], subscribe: false)
        #expect(try await session.send(counter, "increment") == ["jsonrpc": "2.0", "id": 2, "result": .null])
        try await session.send(counter, "increment", 3)
        #expect(try await session.get(counter, "count") == 9)
        try await session.notify("vm.send", ["instance": .string(counter), "input": "decrement"])
        #expect(try await session.get(counter, "count") == 8)
        #expect(try await session.result("vm.execute", RPCSession.execute(counter, "reset")) == ["value": 0])
        #expect(try await session.get(counter, "count") == 0)
        let (login, _) = try await session.create("Login", args: ["latencyMs": 200], subscribe: false)
        try await session.send(login, "email", "demo@example.com")
        try await session.send(login, "password", "secret")
        #expect(try await session.result("vm.execute", RPCSession.execute(login, "submit")) == ["value": "demo@example.com"])
    }

    @Test("vm.subscribe replays the chosen outputs; vm.unsubscribe stops them", arguments: RPCTransport.allCases)
    func subscribeUnsubscribe(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (field, _) = try await session.create("TextField", subscribe: false)
        let subscribed = try await session.result("vm.subscribe", ["instance": .string(field), "outputs": ["length"]])
        let subscription = try #require(subscribed["subscription"]?.stringValue)
        #expect(try await session.take(1, of: subscription) == ["length=0 #1 replay"])
        try await session.send(field, "set", "abc")
        #expect(session.drain(subscription) == ["length=3 #2"])
        #expect(try await session.result("vm.unsubscribe", ["subscription": .string(subscription)]) == ["unsubscribed": true])
        try await session.send(field, "set", "abcd")
        #expect(session.drain(subscription) == [])
        #expect(try await session.call("vm.unsubscribe", ["subscription": .string(subscription)]).errorCodeAndName
            == (-31012, "unknownSubscription"))
    }

    @Test("vm.list shows instances in creation order; vm.destroy closes their subscriptions", arguments: RPCTransport.allCases)
    func listAndDestroy(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (first, subscription) = try await session.create("Counter")
        let (second, _) = try await session.create("Login", subscribe: false)
        #expect(try await session.result("vm.list") == ["instances": [
            ["instance": .string(first), "type": "Counter", "scope": "daemon", "subscribers": 1],
            ["instance": .string(second), "type": "Login", "scope": "daemon", "subscribers": 0],
        ]])
        _ = session.takeQueued()
        #expect(try await session.result("vm.destroy", ["instance": .string(first)]) == ["destroyed": true])
        #expect(session.drain(subscription) == ["closed destroyed"])
        #expect(try await session.call("vm.destroy", ["instance": .string(first)]).errorCodeAndName == (-31002, "unknownInstance"))
        #expect(try await session.result("vm.list")["instances"]?.arrayValue?.count == 1)
    }

    @Test("every application and JSON-RPC error arrives with its code and data.name", arguments: RPCTransport.allCases)
    func errorCodes(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await session.result("vm.create", ["type": "Counter", "id": "c1"])
        try await session.result("vm.create", ["type": "Login", "id": "l1", "args": ["latencyMs": 0]])
        try await session.result("vm.create", ["type": "Login", "id": "slow", "args": ["latencyMs": 5000]])
        try await session.result("vm.send", ["instance": "slow", "input": "email", "value": "demo@example.com"])
        try await session.result("vm.send", ["instance": "slow", "input": "password", "value": "secret"])

        let cases: [(String, JSONValue, Int, String)] = [
            ("vm.sned", [:], -32601, "methodNotFound"),
            ("vm.get", ["instance": 3, "output": "count"], -32602, "invalidParams"),
            ("vm.create", ["type": "Conter"], -31001, "unknownType"),
            ("vm.get", ["instance": "nope", "output": "count"], -31002, "unknownInstance"),
            ("vm.send", ["instance": "c1", "input": "incremnt"], -31003, "unknownInput"),
            ("vm.get", ["instance": "c1", "output": "cont"], -31004, "unknownOutput"),
            ("vm.execute", ["instance": "c1", "action": "rest"], -31005, "unknownAction"),
            ("vm.send", ["instance": "c1", "input": "set", "value": "ten"], -31006, "invalidValue"),
            ("vm.execute", ["instance": "l1", "action": "submit"], -31007, "actionNotEnabled"),
            ("vm.create", ["type": "Counter", "id": "c1"], -31011, "instanceExists"),
            ("vm.unsubscribe", ["subscription": "sub-999"], -31012, "unknownSubscription"),
            ("vm.get", ["instance": "l1", "output": "loginSuccess"], -31013, "notStateOutput"),
            ("vm.execute", ["instance": "slow", "action": "submit", "timeoutMs": 20], -31009, "actionTimedOut"),
        ]
        for (method, params, code, name) in cases {
            let reply = try await session.call(method, params)
            #expect(reply.errorCodeAndName == (code, name), "\(method) \(params.encodedString()) → \(reply.encodedString())")
        }

        try await session.result("vm.send", ["instance": "l1", "input": "email", "value": "demo@example.com"])
        try await session.result("vm.send", ["instance": "l1", "input": "password", "value": "wrong!!"])
        let failed = try await session.call("vm.execute", ["instance": "l1", "action": "submit"])
        #expect(failed.errorCodeAndName == (-31008, "actionFailed"))
        #expect(failed["error"]?["data"]?["error"]?["message"]?.stringValue?.isEmpty == false)

        try await session.send(#"{"jsonrpc":"2.0","id":1,"method":"#)
        let parse = try await session.nextMessage()
        #expect(parse.errorCodeAndName == (-32700, "parseError"))
        #expect(parse["id"] == .null)
        try await session.send(#"{"jsonrpc":"1.0","id":7,"method":"daemon.info"}"#)
        #expect(try await session.nextMessage().errorCodeAndName == (-32600, "invalidRequest"))
        let items = (0..<300).map { _ in #"{"jsonrpc":"2.0","method":"daemon.info"}"# }.joined(separator: ",")
        try await session.send("[" + items + "]")
        let batch = try await session.nextMessage()
        #expect(batch.errorCodeAndName == (-31010, "limitReached"))
        #expect(batch["error"]?["data"]?["limit"]?.stringValue == "maxBatchItems")
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        try await session.send(#"{"jsonrpc":"2.0","id":8,"method":"daemon.info","params":{"x":"# + deep + "}}")
        let tooDeep = try await session.nextMessage()
        #expect(tooDeep["error"]?["data"]?["limit"]?.stringValue == "maxDepth")
        // The connection survives every one of these.
        #expect(try await session.get("c1", "count") == 0)
    }

    @Test("subscribers on several connections see the same values in the same order", arguments: RPCTransport.allCases)
    func fanOut(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let owner = try await vmd.connect()
        var watchers: [RPCSession] = []
        for _ in 0..<3 { watchers.append(try await vmd.connect()) }
        defer { owner.close(); watchers.forEach { $0.close() } }
        try await owner.result("vm.create", ["type": "Counter", "id": "shared"])
        for watcher in watchers {
            #expect(try await watcher.result("vm.subscribe", ["instance": "shared", "replay": false])["subscription"] != nil)
        }
        for _ in 0..<100 { try await owner.notify("vm.send", ["instance": "shared", "input": "increment"]) }
        for watcher in watchers {
            var values: [Int] = []
            var seqs: [Int] = []
            while values.count < 100 {
                let output = try await watcher.nextNotification("vm.output")
                values.append(output["params"]?["value"]?.intValue ?? -1)
                seqs.append(output["params"]?["seq"]?.intValue ?? -1)
            }
            #expect(values == Array(1...100))
            #expect(seqs == Array(1...100))
        }
    }

    @Test("a connection-scoped instance ends with its connection; its other subscribers hear ownerDisconnected",
          arguments: RPCTransport.allCases)
    func connectionScopedCleanup(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let owner = try await vmd.connect()
        let watcher = try await vmd.connect()
        defer { watcher.close() }
        let created = try await owner.result("vm.create", ["type": "Counter", "scope": "connection"])
        let instance = try #require(created["instance"]?.stringValue)
        let subscription = try #require(
            try await watcher.result("vm.subscribe", ["instance": .string(instance)])["subscription"]?.stringValue)
        owner.close()
        let closed = try await watcher.nextNotification("vm.closed")
        #expect(closed["params"]?["subscription"]?.stringValue == subscription)
        #expect(closed["params"]?["reason"]?.stringValue == "ownerDisconnected")
        let list = try await watcher.result("vm.list")
        #expect(list["instances"]?.arrayValue?.contains { $0["instance"]?.stringValue == instance } == false)
    }

    @Test("daemon.monitor reports another connection's traffic in and out", arguments: RPCTransport.allCases)
    func monitor(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let monitor = try await vmd.connect()
        let other = try await vmd.connect()
        defer { monitor.close(); other.close() }
        #expect(try await monitor.result("daemon.monitor")["monitor"] != nil)
        try await other.result("vm.types", ["type": "Counter"])
        let incoming = try await monitor.nextNotification("daemon.message")
        #expect(incoming["params"]?["direction"]?.stringValue == "in")
        #expect(incoming["params"]?["message"]?["method"]?.stringValue == "vm.types")
        let outgoing = try await monitor.nextNotification("daemon.message")
        #expect(outgoing["params"]?["direction"]?.stringValue == "out")
        #expect(outgoing["params"]?["message"]?["result"]?["types"] != nil)
    }
}
