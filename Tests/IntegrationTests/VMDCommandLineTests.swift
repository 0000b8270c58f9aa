import Posix
import Testing
import VMProtocol
import VMTestSupport

/// The built `vmd` binary's command line, configuration layering and start-up refusals.
@Suite("vmd binary: command line and start-up refusals", .offTheCooperativePool)
struct VMDCommandLineTests {
    /// Runs vmd to completion with `arguments`; returns its status and output.
    private func runVMD(
        _ arguments: [String], environment: [String: String] = [:], in directory: TemporarySocketDirectory
    ) throws -> (status: Termination?, output: String) {
        let process = try DaemonProcess.start(
            socketPath: directory.socketPath, arguments: arguments, environment: environment,
            directory: directory, passSocketFlag: false, waitUntilReady: false)
        let status = try process.waitForExit(timeout: .seconds(20))
        return (status, process.log)
    }

    @Test("--version and --help exit 0")
    func versionAndHelp() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let version = try runVMD(["--version"], in: directory)
        #expect(version.status == .exited(0))
        #expect(version.output == "vmd \(VMDVersion.current) (protocol 1)\n")
        let help = try runVMD(["--help"], in: directory)
        #expect(help.status == .exited(0))
        #expect(help.output.contains("--exit-when-idle SECONDS"))
        #expect(help.output.contains("--slow-client POLICY"))
    }

    @Test("an unknown flag or a bad value is a usage error (exit 2) that says what is wrong")
    func usageErrors() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let unknown = try runVMD(["--max-conections", "3"], in: directory)
        #expect(unknown.status == .exited(2))
        #expect(unknown.output.contains("did you mean '--max-connections'"))
        let badPolicy = try runVMD(["--slow-client", "drop"], in: directory)
        #expect(badPolicy.status == .exited(2))
        let badNumber = try runVMD(["--print-config"], environment: ["VMD_MAX_DEPTH": "-3"], in: directory)
        #expect(badNumber.status == .exited(2))
        #expect(badNumber.output.contains("VMD_MAX_DEPTH"))
    }

    @Test("--print-config shows flag > environment > config file > default, each with its source")
    func precedence() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["config/vmd/vmd.conf", "config/vmd", "config"]) }
        try FileSystem.makeDirectories(directory.file("config/vmd"), permissions: 0o700)
        let file = try FileDescriptor.open(directory.file("config/vmd/vmd.conf"), [.writeOnly, .create, .truncate])
        try file.writeAll(Array("max-connections = 11\nmax-depth = 12\nmax-instances = 13\n".utf8))
        try file.close()
        let result = try runVMD(
            ["--print-config", "--max-connections", "21", "--socket", directory.socketPath],
            environment: ["VMD_MAX_CONNECTIONS": "31", "VMD_MAX_DEPTH": "32"], in: directory)
        #expect(result.status == .exited(0))
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("max-connections") && $0.contains("= 21") && $0.hasSuffix("# flag --max-connections") })
        #expect(lines.contains { $0.hasPrefix("max-depth") && $0.contains("= 32") && $0.hasSuffix("# env VMD_MAX_DEPTH") })
        #expect(lines.contains { $0.hasPrefix("max-instances") && $0.contains("= 13") && $0.hasSuffix("vmd.conf:3") })
        #expect(lines.contains { $0.hasPrefix("max-batch-items") && $0.contains("= 256") && $0.hasSuffix("# default") })
        #expect(lines.contains { $0.hasPrefix("socket") && $0.contains(directory.socketPath) })
    }

    @Test("an unknown key in the config file is an error naming the file and line")
    func badConfigFile() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["bad.conf"]) }
        let file = try FileDescriptor.open(directory.file("bad.conf"), [.writeOnly, .create, .truncate])
        try file.writeAll(Array("max-conections = 3\n".utf8))
        try file.close()
        let result = try runVMD(["--print-config", "--config", directory.file("bad.conf")], in: directory)
        #expect(result.status == .exited(2))
        #expect(result.output.contains("bad.conf:1"))
        #expect(result.output.contains("max-connections"))
    }

    @Test("a live daemon on the socket makes a second vmd exit 1 with a clear message")
    func liveDaemonRefused() throws {
        let harness = try ScriptedDaemon()
        defer { harness.stop() }
        let result = try runVMD(["--socket", harness.socketPath], in: harness.directory)
        #expect(result.status == .exited(1))
        #expect(result.output.contains("a live vmd is already listening on \(harness.socketPath)"))
        // The first daemon is untouched.
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine("[1]")
        #expect(try client.readLine() == "[1]")
    }

    @Test("unusable socket paths make vmd exit 1 saying why", arguments: ["too long", "symlink", "open directory"])
    func unusablePaths(kind: String) throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["real", "link", "open"]) }
        let path: String
        let expected: String
        switch kind {
        case "too long":
            path = directory.file(String(repeating: "x", count: 110))
            expected = "sun_path"
        case "symlink":
            _ = try FileSystem.makeDirectory(directory.file("real"), permissions: 0o700)
            try FileSystem.makeSymbolicLink(at: directory.file("link"), pointingTo: directory.file("real"))
            path = directory.file("link/vmd.sock")
            expected = "symbolic link"
        default:
            _ = try FileSystem.makeDirectory(directory.file("open"), permissions: 0o755)
            try FileSystem.setPermissions(directory.file("open"), 0o755)
            path = directory.file("open/vmd.sock")
            expected = "chmod 700"
        }
        let result = try runVMD(["--socket", path], in: directory)
        #expect(result.status == .exited(1))
        #expect(result.output.contains(expected))
    }
}
