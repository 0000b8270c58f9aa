import JSONCore
import Posix
import Testing
import VMClient
import VMProtocol
import VMTestSupport

/// `ViewModelDaemon.main` under another name: the built `greeterd` (Tests/TestApp/main.swift)
/// serves one type, `Greeter`, and is vmd in every respect but its name and default paths.
@Suite("ViewModelDaemon: an app's daemon under its own name", .offTheCooperativePool)
struct ViewModelDaemonTests {
    /// Runs greeterd to completion with `arguments`; returns its status and output. Without
    /// `directory` the run gets a fresh one (the log file collects every run's output).
    private func runGreeterd(
        _ arguments: [String], environment: [String: String] = [:], in given: TemporarySocketDirectory? = nil
    ) throws -> (status: Termination?, output: String) {
        let directory = try given ?? TemporarySocketDirectory()
        defer { if given == nil { directory.remove() } }
        let process = try DaemonProcess.start(
            socketPath: directory.socketPath, arguments: arguments, environment: environment,
            directory: directory, executable: BuiltProducts.executable("greeterd"), passSocketFlag: false,
            waitUntilReady: false)
        let status = try process.waitForExit(timeout: .seconds(20))
        return (status, process.log)
    }

    @Test("--help and --version speak with the app's name and version")
    func helpAndVersionShowTheName() throws {
        let version = try runGreeterd(["--version"])
        #expect(version.status == .exited(0))
        #expect(version.output == "greeterd 2.3.4 (vmd \(VMDVersion.current), protocol 1)\n")
        let help = try runGreeterd(["--help"])
        #expect(help.status == .exited(0))
        #expect(help.output.hasPrefix("Serves greetings.\n"))
        #expect(help.output.contains("Usage: greeterd [options]"))
        #expect(help.output.contains("$XDG_CONFIG_HOME/greeterd/greeterd.conf"))
        #expect(help.output.contains("$XDG_RUNTIME_DIR/greeterd.sock"))
        #expect(help.output.contains("another greeterd is listening"))
        // Every vmd option is there.
        #expect(help.output.contains("--exit-when-idle SECONDS"))
        #expect(help.output.contains("--event-loop BACKEND"))
        #expect(!help.output.contains("vmd.conf"))
    }

    @Test("--print-config reads the app's config file and derives the app's socket and state paths")
    func printConfigUsesTheAppsPaths() throws {
        let directory = try TemporarySocketDirectory()
        let files = ["config/greeterd/greeterd.conf", "config/greeterd", "config/vmd/vmd.conf", "config/vmd", "config"]
        defer { directory.remove(files) }
        try FileSystem.makeDirectories(directory.file("config/greeterd"), permissions: 0o700)
        try FileSystem.makeDirectories(directory.file("config/vmd"), permissions: 0o700)
        try write("max-depth = 17\n", to: directory.file("config/greeterd/greeterd.conf"))
        try write("max-instances = 5\n", to: directory.file("config/vmd/vmd.conf"))
        let result = try runGreeterd(
            ["--print-config"],
            environment: ["XDG_RUNTIME_DIR": directory.path, "XDG_STATE_HOME": directory.file("state")], in: directory)
        #expect(result.status == .exited(0))
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("socket") && $0.contains("\"\(directory.file("greeterd.sock"))\"") })
        #expect(lines.contains { $0.hasPrefix("state-dir") && $0.contains("\"\(directory.file("state/greeterd"))\"") })
        #expect(lines.contains { $0.hasPrefix("max-depth") && $0.contains("= 17") && $0.hasSuffix("greeterd.conf:1") })
        // vmd's own config file is not the app's.
        #expect(lines.contains { $0.hasPrefix("max-instances") && $0.contains("= 100000") && $0.hasSuffix("# default") })
    }

    @Test("the event-loop backend comes from the flag, VMD_EVENT_LOOP or the config file, and an unknown one is a usage error")
    func eventLoopOption() throws {
        let fromEnvironment = try runGreeterd(["--print-config"], environment: ["VMD_EVENT_LOOP": "poll"])
        #expect(fromEnvironment.status == .exited(0))
        #expect(fromEnvironment.output.split(separator: "\n").contains {
            $0.hasPrefix("event-loop") && $0.contains("\"poll\"") && $0.hasSuffix("# env VMD_EVENT_LOOP")
        })
        let fromFlag = try runGreeterd(["--print-config", "--event-loop", "epoll"], environment: ["VMD_EVENT_LOOP": "poll"])
        #expect(fromFlag.output.split(separator: "\n").contains {
            $0.hasPrefix("event-loop") && $0.contains("\"epoll\"") && $0.hasSuffix("# flag --event-loop")
        })
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["config/greeterd/greeterd.conf", "config/greeterd", "config"]) }
        try FileSystem.makeDirectories(directory.file("config/greeterd"), permissions: 0o700)
        try write("event-loop = \"poll\"\n", to: directory.file("config/greeterd/greeterd.conf"))
        // Empty counts as unset: the test process's own VMD_EVENT_LOOP must not beat the file.
        let fromFile = try runGreeterd(["--print-config"], environment: ["VMD_EVENT_LOOP": ""], in: directory)
        #expect(fromFile.output.split(separator: "\n").contains {
            $0.hasPrefix("event-loop") && $0.contains("\"poll\"") && $0.hasSuffix("greeterd.conf:1")
        })
        let unknown = try runGreeterd(["--event-loop", "kqueue"])
        #expect(unknown.status == .exited(2))
        #expect(unknown.output.contains("kqueue"))
    }

    @Test("without --socket the app listens on <name>.sock in the runtime directory",
          arguments: EventLoopBackend.available)
    func defaultSocketFollowsTheName(backend: EventLoopBackend) throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["greeterd.sock"]) }
        let socketPath = directory.file("greeterd.sock")
        let daemon = try DaemonProcess.start(
            socketPath: socketPath, environment: ["XDG_RUNTIME_DIR": directory.path, "VMD_EVENT_LOOP": backend.rawValue],
            directory: directory, executable: BuiltProducts.executable("greeterd"), passSocketFlag: false)
        defer { daemon.stop() }
        #expect(try FileSystem.info(socketPath)?.kind == .socket)
        #expect(try FileSystem.info(directory.socketPath) == nil)
        daemon.stop()
        let log = daemon.log
        #expect(log.contains("starting name=greeterd version=2.3.4 event-loop=\(backend.rawValue)"))
    }

    @Test("a client creates the app's type and drives it over the socket; the catalog is not served",
          arguments: EventLoopBackend.available)
    func clientDrivesTheAppsType(backend: EventLoopBackend) async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let daemon = try DaemonProcess.start(
            socketPath: directory.socketPath, environment: ["VMD_EVENT_LOOP": backend.rawValue], directory: directory,
            executable: BuiltProducts.executable("greeterd"))
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: directory.socketPath))
        defer { client.close() }

        #expect(try await client.info().version == "2.3.4")
        #expect(try await client.types().map(\.name) == ["Greeter"])
        let created = try await client.create(type: "Greeter", id: "g1")
        #expect(created.instance == "g1")
        #expect(try await client.get(instance: "g1", output: "greeting") == "Hello, world!")
        try await client.send(instance: "g1", input: "name", value: "Ada")
        #expect(try await client.get(instance: "g1", output: "greeting") == "Hello, Ada!")
        try await client.destroy("g1")
        #expect(try await client.list().isEmpty)
    }

    @Test("a registration that throws stops the start with exit status 1 and says why")
    func failedRegistrationStopsTheStart() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let result = try runGreeterd(
            ["--socket", directory.socketPath, "--state-dir", directory.file("state")],
            environment: ["GREETERD_REFUSE": "no greetings today"], in: directory)
        #expect(result.status == .exited(1))
        // The closure saw the daemon's environment and the resolved state directory.
        #expect(result.output.contains("no greetings today in \(directory.file("state"))"))
        #expect(try FileSystem.info(directory.socketPath) == nil)
    }

    private func write(_ text: String, to path: String) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        try file.writeAll(Array(text.utf8))
        try file.close()
    }
}
