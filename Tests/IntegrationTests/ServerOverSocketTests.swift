import JSONCore
import Posix
import Testing
import VMTestSupport

/// What only the real daemon on its socket can show: signals, the outbound buffer, peers of
/// another user. The methods and errors themselves run over both transports in
/// MethodsOverBothTransportsTests.
@Suite("vmd over its socket: cancellation, shutdown, overflow, peers", .offTheCooperativePool)
struct ServerOverSocketTests {
    @Test("a pending vm.execute is cancelled by $/cancelRequest, and answered shuttingDown on SIGTERM")
    func cancelAndShuttingDown() async throws {
        let vmd = try await SocketDaemon.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        try await session.result("vm.create", ["type": "Login", "id": "l", "args": ["latencyMs": 10000]])
        try await session.result("vm.send", ["instance": "l", "input": "email", "value": "demo@example.com"])
        try await session.result("vm.send", ["instance": "l", "input": "password", "value": "secret"])
        try await session.send(#"{"jsonrpc":"2.0","id":"x1","method":"vm.execute","params":{"instance":"l","action":"submit"}}"#)
        try await session.notify("$/cancelRequest", ["id": "x1"])
        let cancelled = try await session.nextMessage()
        #expect(cancelled["id"]?.stringValue == "x1")
        #expect(cancelled.errorCodeAndName == (-32800, "requestCancelled"))

        try await session.send(#"{"jsonrpc":"2.0","id":"x2","method":"vm.execute","params":{"instance":"l","action":"submit"}}"#)
        #expect(try await session.get("l", "isLoading") == .bool(true))
        try vmd.process.signal(.terminate)
        let stopped = try await session.response(to: "x2")
        #expect(stopped.errorCodeAndName == (-31014, "shuttingDown"))
        #expect(try vmd.process.waitForExit() == .exited(0))
    }

    @Test("a slow subscriber gets vm.overflow, then the newest count; nothing blocks the writer")
    func overflowOverTheSocket() async throws {
        let vmd = try await SocketDaemon.start(arguments: ["--max-outbound-bytes", "65536"])
        defer { vmd.stop() }
        let writer = try await vmd.connect()
        let watcher = try await vmd.connect()
        defer { writer.close(); watcher.close() }
        try await writer.result("vm.create", ["type": "Counter", "id": "busy"])
        try await watcher.result("vm.subscribe", ["instance": "busy", "replay": false])
        for _ in 0..<20_000 { try await writer.notify("vm.send", ["instance": "busy", "input": "increment"]) }
        // The writer is answered while the watcher reads nothing.
        #expect(try await writer.get("busy", "count").intValue == 20_000)
        var expectedSeq = 1
        var sawOverflow = false
        var last = 0
        while last != 20_000 {
            let message = try await watcher.nextMessage()
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

    @Test("same-user-only methods refuse a peer admitted by --allow-uid (permissionDenied)",
          .enabled(if: CurrentProcess.uid == 0, "needs root to run a client as another user"))
    func permissionDenied() async throws {
        let name = "vmdt-perm-\(CurrentProcess.pid)"
        let vmd = try await SocketDaemon.start(arguments: ["--allow-uid", "65534"], socketPath: "@" + name)
        defer { vmd.stop() }
        let directory = vmd.directory
        defer { directory.remove(["input", "output"]) }
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
        let session = try await vmd.connect()
        defer { session.close() }
        #expect(try await session.result("daemon.info")["protocol"]?.intValue == 1)
    }
}
