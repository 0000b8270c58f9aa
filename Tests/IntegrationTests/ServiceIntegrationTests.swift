import Posix
import Testing
import VMTestSupport

@Suite("Service manager integration (in-process daemon)", .offTheCooperativePool)
struct ServiceIntegrationTests {
    @Test("READY=1 reaches NOTIFY_SOCKET once the daemon listens, STOPPING=1 when it stops")
    func readinessAndStopping() throws {
        let notifyDirectory = try TemporarySocketDirectory()
        defer { notifyDirectory.remove(["notify"]) }
        let listener = try UnixDatagramSocket.bind(to: UnixSocketAddress(path: notifyDirectory.file("notify")))
        defer { try? listener.close() }
        let harness = try ScriptedDaemon(notifySocket: notifyDirectory.file("notify"))
        defer { harness.directory.remove() }
        let ready = try listener.receive(timeout: .seconds(10)).map { String(decoding: $0, as: UTF8.self) }
        #expect(ready?.split(separator: "\n").first == "READY=1")
        #expect(ready?.contains("STATUS=Listening on \(harness.socketPath)") == true)
        // Ready means ready: a connection succeeds at once.
        let client = try SocketClient(path: harness.socketPath)
        client.close()
        harness.daemon.stop()
        let stopping = try listener.receive(timeout: .seconds(10)).map { String(decoding: $0, as: UTF8.self) }
        #expect(stopping?.hasPrefix("STOPPING=1") == true)
    }

    @Test("a peer of another uid reads one permissionDenied error and is closed; --allow-uid admits it",
          .enabled(if: CurrentProcess.uid == 0, "needs root to run a client as another user"),
          arguments: [false, true])
    func peerCredentials(allowed: Bool) throws {
        let name = "@vmdt-peer-\(CurrentProcess.pid)-\(allowed)"
        // An abstract socket has no file permissions, so only SO_PEERCRED stands in the way.
        let harness = try ScriptedDaemon(socketName: name) { if allowed { $0.allowedUIDs = [65534] } }
        defer { harness.stop() }
        let input = harness.directory.file("input")
        let output = harness.directory.file("output")
        let file = try FileDescriptor.open(input, [.writeOnly, .create, .truncate])
        // A refused client writes nothing: socat would stop at the broken pipe of its write
        // before reading the reply (the reply is there to read, socat just quits first).
        try file.writeAll(Array((allowed ? "\"whoami\"\n" : "").utf8))
        try file.close()
        let client = try ChildProcess.spawn(
            "setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups",
                                   "socat", "-t", "2", "-", "ABSTRACT-CONNECT:" + String(name.dropFirst())],
            searchPath: true, standardInput: input, outputPath: output)
        _ = try client.wait()
        let received = String(decoding: (try? FileSystem.readFile(output)) ?? [], as: UTF8.self)
        defer { _ = try? FileSystem.remove(input); _ = try? FileSystem.remove(output) }
        if allowed {
            #expect(received.contains(#"{"uid":65534}"#))
            #expect(harness.events.contains("opened c1 uid 65534"))
        } else {
            // One error naming the reason (PROTOCOL.md §12); the handler never heard of it.
            #expect(received.hasPrefix(#"{"jsonrpc":"2.0","id":null,"error":{"code":-31015,"#))
            #expect(received.contains(#""data":{"name":"permissionDenied","uid":65534}"#))
            #expect(Waiting.until { harness.daemon.log.contains("peer runs as another user") })
            #expect(harness.daemon.log.contains("uid=65534"))
            #expect(!harness.events.contains("opened"))
        }
    }
}
