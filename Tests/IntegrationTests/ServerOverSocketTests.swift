import JSONCore
import Posix
import Testing
import VMTestSupport

/// The real server behind the real transport: error codes, fan-out, cleanup, overflow, monitor.
@Suite("vmd over its socket: methods, errors, fan-out, cleanup, overflow")
struct ServerOverSocketTests {
    /// A running vmd in a fresh directory, stopped at the end of the test.
    private struct Running {
        let directory: TemporarySocketDirectory
        let process: DaemonProcess
        init(_ arguments: [String] = []) throws {
            directory = try TemporarySocketDirectory()
            process = try DaemonProcess.start(socketPath: directory.socketPath, arguments: arguments, directory: directory)
        }
        func session() throws -> VMDSession { try VMDSession(path: directory.socketPath) }
        func stop() {
            process.stop()
            directory.remove()
        }
    }

    @Test("every application and JSON-RPC error arrives with its code and data.name")
    func errorCodes() throws {
        let vmd = try Running()
        defer { vmd.stop() }
        let session = try vmd.session()
        defer { session.close() }
        try session.call("vm.create", ["type": "Counter", "id": "c1"])
        try session.call("vm.create", ["type": "Login", "id": "l1", "args": ["latencyMs": 0]])
        try session.call("vm.create", ["type": "Login", "id": "slow", "args": ["latencyMs": 5000]])
        try session.call("vm.send", ["instance": "slow", "input": "email", "value": "demo@example.com"])
        try session.call("vm.send", ["instance": "slow", "input": "password", "value": "secret"])

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
            let reply = try session.call(method, params)
            #expect(reply.errorCodeAndName == (code, name), "\(method) \(params.serialized) → \(reply.serialized)")
        }

        try session.call("vm.send", ["instance": "l1", "input": "email", "value": "demo@example.com"])
        try session.call("vm.send", ["instance": "l1", "input": "password", "value": "wrong!!"])
        let failed = try session.call("vm.execute", ["instance": "l1", "action": "submit"])
        #expect(failed.errorCodeAndName == (-31008, "actionFailed"))
        #expect(failed["error"]?["data"]?["error"]?["message"]?.stringValue?.isEmpty == false)

        try session.client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"#)
        let parse = try session.client.readMessage()
        #expect(parse.errorCodeAndName == (-32700, "parseError"))
        #expect(parse["id"] == .null)
        try session.client.sendLine(#"{"jsonrpc":"1.0","id":7,"method":"daemon.info"}"#)
        #expect(try session.client.readMessage().errorCodeAndName == (-32600, "invalidRequest"))
        let items = (0..<300).map { _ in #"{"jsonrpc":"2.0","method":"daemon.info"}"# }.joined(separator: ",")
        try session.client.sendLine("[" + items + "]")
        let batch = try session.client.readMessage()
        #expect(batch.errorCodeAndName == (-31010, "limitReached"))
        #expect(batch["error"]?["data"]?["limit"]?.stringValue == "maxBatchItems")
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        try session.client.sendLine(#"{"jsonrpc":"2.0","id":8,"method":"daemon.info","params":{"x":"# + deep + "}}")
        let tooDeep = try session.client.readMessage()
        #expect(tooDeep["error"]?["data"]?["limit"]?.stringValue == "maxDepth")
        // The connection survives every one of these.
        #expect(try session.call("vm.get", ["instance": "c1", "output": "count"])["result"]?["value"]?.intValue == 0)
    }

    @Test("a pending vm.execute is cancelled by $/cancelRequest, and answered shuttingDown on SIGTERM")
    func cancelAndShuttingDown() throws {
        let vmd = try Running()
        defer { vmd.stop() }
        let session = try vmd.session()
        defer { session.close() }
        try session.call("vm.create", ["type": "Login", "id": "l", "args": ["latencyMs": 10000]])
        try session.call("vm.send", ["instance": "l", "input": "email", "value": "demo@example.com"])
        try session.call("vm.send", ["instance": "l", "input": "password", "value": "secret"])
        try session.client.sendLine(#"{"jsonrpc":"2.0","id":"x1","method":"vm.execute","params":{"instance":"l","action":"submit"}}"#)
        try session.notify("$/cancelRequest", ["id": "x1"])
        let cancelled = try session.client.readMessage()
        #expect(cancelled["id"]?.stringValue == "x1")
        #expect(cancelled.errorCodeAndName == (-32800, "requestCancelled"))

        try session.client.sendLine(#"{"jsonrpc":"2.0","id":"x2","method":"vm.execute","params":{"instance":"l","action":"submit"}}"#)
        #expect(try session.call("vm.get", ["instance": "l", "output": "isLoading"])["result"]?["value"] == .bool(true))
        try vmd.process.signal(.terminate)
        let stopped = try session.response(id: -1, timeout: .seconds(10), matchingString: "x2")
        #expect(stopped.errorCodeAndName == (-31014, "shuttingDown"))
        #expect(try vmd.process.waitForExit() == .exited(0))
    }

    @Test("subscribers on several connections see the same values in the same order")
    func fanOut() throws {
        let vmd = try Running()
        defer { vmd.stop() }
        let owner = try vmd.session()
        let watchers = try (0..<3).map { _ in try vmd.session() }
        defer { owner.close(); watchers.forEach { $0.close() } }
        try owner.call("vm.create", ["type": "Counter", "id": "shared"])
        for watcher in watchers {
            #expect(try watcher.call("vm.subscribe", ["instance": "shared", "replay": false])["result"]?["subscription"] != nil)
        }
        for _ in 0..<100 { try owner.notify("vm.send", ["instance": "shared", "input": "increment"]) }
        for watcher in watchers {
            var values: [Int] = []
            var seqs: [Int] = []
            while values.count < 100 {
                let output = try watcher.next("vm.output")
                values.append(output["params"]?["value"]?.intValue ?? -1)
                seqs.append(output["params"]?["seq"]?.intValue ?? -1)
            }
            #expect(values == Array(1...100))
            #expect(seqs == Array(1...100))
        }
    }

    @Test("a connection-scoped instance ends with its connection; its other subscribers hear ownerDisconnected")
    func connectionScopedCleanup() throws {
        let vmd = try Running()
        defer { vmd.stop() }
        let owner = try vmd.session()
        let watcher = try vmd.session()
        defer { watcher.close() }
        let created = try owner.call("vm.create", ["type": "Counter", "scope": "connection"])
        let instance = try #require(created["result"]?["instance"]?.stringValue)
        let subscription = try #require(
            try watcher.call("vm.subscribe", ["instance": .string(instance)])["result"]?["subscription"]?.stringValue)
        owner.close()
        let closed = try watcher.next("vm.closed")
        #expect(closed["params"]?["subscription"]?.stringValue == subscription)
        #expect(closed["params"]?["reason"]?.stringValue == "ownerDisconnected")
        let list = try watcher.call("vm.list")
        #expect(list["result"]?["instances"]?.arrayValue?.contains { $0["instance"]?.stringValue == instance } == false)
    }

    @Test("a slow subscriber gets vm.overflow, then the newest count; nothing blocks the writer")
    func overflowOverTheSocket() throws {
        let vmd = try Running(["--max-outbound-bytes", "65536"])
        defer { vmd.stop() }
        let writer = try vmd.session()
        let watcher = try vmd.session()
        defer { writer.close(); watcher.close() }
        try writer.call("vm.create", ["type": "Counter", "id": "busy"])
        try watcher.call("vm.subscribe", ["instance": "busy", "replay": false])
        for _ in 0..<20_000 { try writer.notify("vm.send", ["instance": "busy", "input": "increment"]) }
        // The writer is answered while the watcher reads nothing.
        #expect(try writer.call("vm.get", ["instance": "busy", "output": "count"])["result"]?["value"]?.intValue == 20_000)
        var expectedSeq = 1
        var sawOverflow = false
        var last = 0
        while last != 20_000 {
            let message = try watcher.client.readMessage()
            let params = message["params"]
            if message["method"]?.stringValue == "vm.overflow" {
                sawOverflow = true
                #expect(params?["lost"]?["from"]?.intValue == expectedSeq)
                expectedSeq = (params?["lost"]?["to"]?.intValue ?? 0) + 1
            } else {
                #expect(params?["seq"]?.intValue == expectedSeq)
                expectedSeq += 1
                last = params?["value"]?.intValue ?? 0
            }
        }
        #expect(sawOverflow)
    }

    @Test("daemon.monitor reports another connection's traffic in and out")
    func monitor() throws {
        let vmd = try Running()
        defer { vmd.stop() }
        let monitor = try vmd.session()
        let other = try vmd.session()
        defer { monitor.close(); other.close() }
        #expect(try monitor.call("daemon.monitor")["result"]?["monitor"] != nil)
        try other.call("vm.types", ["type": "Counter"])
        let incoming = try monitor.next("daemon.message")
        #expect(incoming["params"]?["direction"]?.stringValue == "in")
        #expect(incoming["params"]?["message"]?["method"]?.stringValue == "vm.types")
        let outgoing = try monitor.next("daemon.message")
        #expect(outgoing["params"]?["direction"]?.stringValue == "out")
        #expect(outgoing["params"]?["message"]?["result"]?["types"] != nil)
    }

    @Test("same-user-only methods refuse a peer admitted by --allow-uid (permissionDenied)",
          .enabled(if: CurrentProcess.uid == 0, "needs root to run a client as another user"))
    func permissionDenied() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["input", "output"]) }
        let name = "vmdt-perm-\(CurrentProcess.pid)"
        let vmd = try DaemonProcess.start(socketPath: "@" + name, arguments: ["--allow-uid", "65534"], directory: directory)
        defer { vmd.stop() }
        let input = try FileDescriptor.open(directory.file("input"), [.writeOnly, .create, .truncate])
        try input.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.shutdown"}"#.utf8) + [10])
        try input.close()
        let client = try ChildProcess.spawn(
            "setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "socat", "-t", "2", "-",
                                   "ABSTRACT-CONNECT:" + name],
            searchPath: true, standardInput: directory.file("input"), outputPath: directory.file("output"))
        _ = try client.wait()
        let output = String(decoding: try FileSystem.readFile(directory.file("output")), as: UTF8.self)
        let reply = try JSONValue(parsing: output.split(separator: "\n").first.map(String.init) ?? "")
        #expect(reply.errorCodeAndName == (-31015, "permissionDenied"))
        // Still running.
        let session = try VMDSession(path: "@" + name)
        defer { session.close() }
        #expect(try session.call("daemon.info")["result"]?["protocol"]?.intValue == 1)
    }
}

extension VMDSession {
    /// Reads until a response whose id is the string `matchingString`.
    func response(id _: Int, timeout: Duration, matchingString id: String) throws -> JSONValue {
        while true {
            let message = try client.readMessage(timeout: timeout)
            if message["id"]?.stringValue == id { return message }
        }
    }
}
