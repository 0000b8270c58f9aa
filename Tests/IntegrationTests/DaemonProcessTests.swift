import JSONCore
import Posix
import Testing
import VMTestSupport

/// The built `vmd` as a process: signals, readiness, socket activation, idle exit, log formats.
@Suite("vmd binary as a process", .offTheCooperativePool)
struct DaemonProcessTests {
    @Test("SIGTERM and SIGINT: subscribers get vm.closed reason shutdown, the socket is removed, exit 0",
          arguments: [UnixSignal.terminate, UnixSignal.interrupt])
    func signalStopsGracefully(signal: UnixSignal) throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: directory.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","subscribe":{}}}"#)
        let created = try client.readMessage()
        let instance = try #require(created["result"]?["instance"]?.stringValue)
        let subscription = try #require(created["result"]?["subscription"]?.stringValue)
        #expect(try client.readMessage()["params"]?["replay"] == .bool(true))
        try vmd.signal(signal)
        let closed = try client.readMessage()
        #expect(closed["method"]?.stringValue == "vm.closed")
        #expect(closed["params"]?["instance"]?.stringValue == instance)
        #expect(closed["params"]?["subscription"]?.stringValue == subscription)
        #expect(closed["params"]?["reason"]?.stringValue == "shutdown")
        #expect(try client.waitForClose())
        #expect(try vmd.waitForExit() == .exited(0))
        #expect(try FileSystem.info(directory.socketPath) == nil)
        #expect(vmd.log.contains("stopping reason=\(signal)"))
    }

    @Test("daemon.shutdown answers stopping, then the daemon exits 0")
    func shutdownRequest() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        let client = try SocketClient.connect(path: directory.socketPath)
        defer { client.close() }
        try client.sendLine(#"{"jsonrpc":"2.0","id":"bye","method":"daemon.shutdown"}"#)
        let reply = try client.readMessage()
        #expect(reply["id"]?.stringValue == "bye")
        #expect(reply["result"]?["stopping"] == .bool(true))
        #expect(try client.waitForClose())
        #expect(try vmd.waitForExit() == .exited(0))
    }

    @Test("READY=1 is sent to a real NOTIFY_SOCKET once listening, STOPPING=1 on SIGTERM")
    func notifySocket() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["notify"]) }
        let notify = try UnixDatagramSocket.bind(to: UnixSocketAddress(path: directory.file("notify")))
        defer { try? notify.close() }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath,
                                          environment: ["NOTIFY_SOCKET": directory.file("notify")],
                                          directory: directory, waitUntilReady: false)
        defer { vmd.stop() }
        let ready = try #require(try notify.receive(timeout: .seconds(20)))
        #expect(String(decoding: ready, as: UTF8.self).hasPrefix("READY=1"))
        // Readiness is honest: the socket accepts the moment READY=1 arrives.
        let client = try SocketClient(path: directory.socketPath)
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#)
        #expect(try client.readMessage()["result"]?["protocol"]?.intValue == 1)
        client.close()
        try vmd.signal(.terminate)
        let stopping = try #require(try notify.receive(timeout: .seconds(20)))
        #expect(String(decoding: stopping, as: UTF8.self).hasPrefix("STOPPING=1"))
        #expect(try vmd.waitForExit() == .exited(0))
    }

    @Test("started by the real systemd-socket-activate, vmd serves the passed socket and leaves its file")
    func socketActivation() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["activated.sock"]) }
        let socket = directory.file("activated.sock")
        let vmdPath = try BuiltProducts.executable("vmd")
        let activator = try DaemonProcess.start(
            socketPath: socket, arguments: ["-l", socket, vmdPath, "--socket", socket, "--exit-when-idle", "1"],
            directory: directory, executable: "/usr/bin/systemd-socket-activate", passSocketFlag: false,
            waitUntilReady: false)
        defer { activator.stop() }
        // systemd-socket-activate listens first; the first connection makes it exec vmd.
        let client = try SocketClient.connect(path: socket, timeout: .seconds(20))
        try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#)
        let info = try client.readMessage(timeout: .seconds(20))
        #expect(info["result"]?["socket"]?.stringValue == socket)
        #expect(info["result"]?["pid"]?.intValue == Int(activator.child.pid))
        client.close()
        // Idle for a second: vmd exits 0 and the socket file (systemd's) stays.
        #expect(try activator.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(try FileSystem.info(socket)?.kind == .socket)
        #expect(activator.log.contains("source=\"socket activation\""))
    }

    @Test("with --exit-when-idle the daemon exits 0 after that long without connections")
    func idleExit() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, arguments: ["--exit-when-idle", "0.5"],
                                          directory: directory)
        defer { vmd.stop() }
        #expect(try vmd.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(vmd.log.contains("--exit-when-idle"))
        #expect(try FileSystem.info(directory.socketPath) == nil)
    }

    @Test("under journald lines carry priority prefixes; --log-format json writes JSON objects")
    func logFormats() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let journal = try DaemonProcess.start(socketPath: directory.socketPath,
                                              environment: ["JOURNAL_STREAM": "8:12345"], directory: directory)
        journal.stop()
        let lines = journal.log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("<") })
        #expect(lines.contains { $0.hasPrefix("<6>listening") }, "\(journal.log)")

        let jsonDirectory = try TemporarySocketDirectory()
        defer { jsonDirectory.remove() }
        let json = try DaemonProcess.start(socketPath: jsonDirectory.socketPath, arguments: ["--log-format", "json"],
                                           directory: jsonDirectory)
        json.stop()
        let objects = try json.log.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(objects.contains { $0["message"]?.stringValue == "listening" && $0["socket"]?.stringValue == jsonDirectory.socketPath })
        #expect(objects.allSatisfy { $0["time"] != nil && $0["level"] != nil })
    }

    @Test("the README's socat one-liner answers vm.types")
    func socatOneLiner() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["out"]) }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        let shell = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", #"printf '{"jsonrpc":"2.0","id":1,"method":"vm.types"}\n' | socat - UNIX-CONNECT:$SOCK"#],
            environment: ["SOCK": directory.socketPath, "PATH": "/usr/bin:/bin"], outputPath: directory.file("out"))
        #expect(try shell.wait() == .exited(0))
        let output = String(decoding: try FileSystem.readFile(directory.file("out")), as: UTF8.self)
        let reply = try JSONValue(parsing: output.split(separator: "\n").first.map(String.init) ?? "")
        #expect(reply["id"]?.intValue == 1)
        #expect(reply["result"]?["types"]?.arrayValue?.contains { $0["name"]?.stringValue == "Counter" } == true)
        // vmd closed it (socat did not have to wait out its 0.5 s half-close timeout).
        #expect(vmd.log.contains("peer finished writing and nothing is pending"))
    }

    @Test("connections that come and go, politely or not, leave no descriptor behind")
    func noDescriptorLeak() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["fds"]) }
        let vmd = try DaemonProcess.start(socketPath: directory.socketPath, directory: directory)
        defer { vmd.stop() }
        func openDescriptors() throws -> Int {
            let shell = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "ls /proc/\(vmd.child.pid)/fd | wc -l"],
                                               outputPath: directory.file("fds"))
            _ = try shell.wait()
            defer { _ = try? FileSystem.remove(directory.file("fds")) }
            let text = String(decoding: try FileSystem.readFile(directory.file("fds")), as: UTF8.self)
            return Int(text.filter(\.isNumber)) ?? -1
        }
        let settle = try RPCSession(socketPath: directory.socketPath)
        try await settle.result("daemon.info")
        let baseline = try openDescriptors()
        for round in 0..<200 {
            let client = try SocketClient(path: directory.socketPath)
            switch round % 4 {
            case 0: try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","scope":"connection","subscribe":{}}}"#)
            case 1: try client.write(Array("Content-Length: 99999999\r\n\r\n".utf8))
            case 2: try client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"vm.types"}"#); try client.finishWriting()
            default: break
            }
            client.close()
        }
        #expect(await Waiting.asyncUntil {
            (try? await settle.result("daemon.info")["connections"]?.intValue) == 1
        })
        #expect(try openDescriptors() == baseline)
        settle.close()
    }
}
