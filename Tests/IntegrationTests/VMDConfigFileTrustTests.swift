import Posix
import Testing
import VMTestSupport

/// What the built `vmd` accepts as a config file (issue 31, item 4 and the smaller ones): only
/// a regular file of bounded size that nobody but its owner (the user or root) can write,
/// as ssh requires of its own config; `socket` may be set there, as `--help` says.
@Suite("vmd's config file: trusted only when others cannot write it", .offTheCooperativePool)
struct VMDConfigFileTrustTests {
    /// Runs `vmd --print-config ARGUMENTS` to completion; its status and output.
    private func printConfig(_ arguments: [String], in directory: TemporarySocketDirectory) throws -> (status: Termination?, output: String) {
        let process = try DaemonProcess.start(
            socketPath: directory.socketPath, arguments: ["--print-config"] + arguments,
            directory: directory, passSocketFlag: false, waitUntilReady: false)
        return (try process.waitForExit(timeout: .seconds(20)), process.log)
    }

    /// Writes `text` to `path` and sets its mode to `permissions` exactly.
    private func write(_ text: String, to path: String, permissions: UInt32 = 0o600) throws {
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        try file.writeAll(Array(text.utf8))
        try file.close()
        try FileSystem.setPermissions(path, permissions)
    }

    @Test("a config file others can write (mode 0666, 0620) is refused with exit 2, naming the file and the fix")
    func writableByOthersIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["open.conf"]) }
        let path = directory.file("open.conf")
        for permissions: UInt32 in [0o666, 0o620] {
            try write("allow-uid = 4242\n", to: path, permissions: permissions)
            let result = try printConfig(["--config", path], in: directory)
            #expect(result.status == .exited(2))
            #expect(result.output.contains("open.conf"))
            #expect(result.output.contains("refusing the config file: it is writable by"))
            #expect(result.output.contains("chmod go-w"))
            #expect(!result.output.contains("4242"))
        }
        // The owner's own file (0644) is read.
        try write("allow-uid = 4242\n", to: path, permissions: 0o644)
        let accepted = try printConfig(["--config", path], in: directory)
        #expect(accepted.status == .exited(0))
        #expect(accepted.output.contains("4242"))
    }

    @Test("the standard config file in a directory others can write (without the sticky bit) is refused")
    func worldWritableDirectoryIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["config/vmd/vmd.conf", "config/vmd", "config"]) }
        try FileSystem.makeDirectories(directory.file("config/vmd"), permissions: 0o700)
        try write("max-depth = 7\n", to: directory.file("config/vmd/vmd.conf"))
        try FileSystem.setPermissions(directory.file("config/vmd"), 0o777)
        let refused = try printConfig([], in: directory)
        #expect(refused.status == .exited(2))
        #expect(refused.output.contains("its directory \(directory.file("config/vmd")) is writable by group and others"))
        // With the sticky bit (as /tmp) nobody else can replace the file: it is read.
        try FileSystem.setPermissions(directory.file("config/vmd"), 0o1777)
        let sticky = try printConfig([], in: directory)
        #expect(sticky.status == .exited(0))
        #expect(sticky.output.split(separator: "\n").contains { $0.hasPrefix("max-depth") && $0.contains("= 7") })
    }

    @Test("--config /dev/zero and a FIFO are refused at once with exit 2: only a regular file is read")
    func specialFilesAreRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["fifo.conf"]) }
        let zero = try printConfig(["--config", "/dev/zero"], in: directory)
        #expect(zero.status == .exited(2))
        #expect(zero.output.contains("/dev/zero is not a regular file"))
        let fifo = directory.file("fifo.conf")
        let made = try ChildProcess.spawn("mkfifo", arguments: ["-m", "600", fifo], searchPath: true).wait()
        try #require(made == .exited(0))
        let blocked = try printConfig(["--config", fifo], in: directory)
        #expect(blocked.status == .exited(2))
        #expect(blocked.output.contains("fifo.conf is not a regular file"))
    }

    @Test("a config file over 1 MiB is refused without being read whole")
    func oversizedIsRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["big.conf"]) }
        let path = directory.file("big.conf")
        try write(String(repeating: "# padding\n", count: 110_000), to: path)
        let result = try printConfig(["--config", path], in: directory)
        #expect(result.status == .exited(2))
        #expect(result.output.contains("big.conf is larger than 1048576 bytes"))
    }

    @Test("socket can be set in the config file, as --help says")
    func socketFromTheConfigFile() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["socket.conf"]) }
        let path = directory.file("socket.conf")
        let socket = directory.file("from-config.sock")
        try write("socket = \"\(socket)\"\n", to: path)
        let result = try printConfig(["--config", path], in: directory)
        #expect(result.status == .exited(0))
        #expect(result.output.split(separator: "\n").contains { $0.hasPrefix("socket") && $0.contains(socket) && $0.hasSuffix("socket.conf:1") })
    }
}
