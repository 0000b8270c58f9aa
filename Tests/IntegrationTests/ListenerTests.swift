import Posix
import Testing
import VMTransport
import VMTestSupport

@Suite("Listener start-up safety", .offTheCooperativePool)
struct ListenerTests {
    @Test("the socket is created 0600 in a directory created 0700")
    func permissions() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["run"]) }
        let path = directory.file("run/vmd.sock")
        let opened = try ListenerSetup.open(socketPath: path, acceptsSocketActivation: false)
        defer { try? opened.listener.close() }
        #expect(try FileSystem.info(path)?.permissions == 0o600)
        #expect(try FileSystem.info(path)?.kind == .socket)
        #expect(try FileSystem.info(directory.file("run"))?.permissions == 0o700)
    }

    @Test("a directory that group or others can enter is refused")
    func openDirectoryRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["open"]) }
        _ = try FileSystem.makeDirectory(directory.file("open"), permissions: 0o755)
        try FileSystem.setPermissions(directory.file("open"), 0o755)
        let error = #expect(throws: StartupError.self) {
            try ListenerSetup.open(socketPath: directory.file("open/vmd.sock"), acceptsSocketActivation: false)
        }
        #expect(error?.description.contains("chmod 700") == true)
    }

    @Test("a symlinked socket directory is refused")
    func symlinkRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["real", "link"]) }
        _ = try FileSystem.makeDirectory(directory.file("real"), permissions: 0o700)
        try FileSystem.makeSymbolicLink(at: directory.file("link"), pointingTo: directory.file("real"))
        let error = #expect(throws: StartupError.self) {
            try ListenerSetup.open(socketPath: directory.file("link/vmd.sock"), acceptsSocketActivation: false)
        }
        #expect(error?.description.contains("symbolic link") == true)
    }

    @Test("a path too long for sun_path is a clear error")
    func pathTooLong() throws {
        let path = "/tmp/" + String(repeating: "d", count: 120) + "/vmd.sock"
        let error = #expect(throws: StartupError.self) {
            try ListenerSetup.open(socketPath: path, acceptsSocketActivation: false)
        }
        #expect(error?.description.contains("sun_path") == true)
    }

    @Test("a stale socket file nobody answers on is replaced")
    func staleReplaced() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let stale = try UnixListener.bind(to: UnixSocketAddress(path: directory.socketPath))
        try stale.descriptor.close()  // the file stays, nobody listens: what a crash leaves
        #expect(try FileSystem.info(directory.socketPath)?.kind == .socket)
        let opened = try ListenerSetup.open(socketPath: directory.socketPath, acceptsSocketActivation: false)
        defer { try? opened.listener.close() }
        #expect(opened.replacedStaleSocket)
        let client = try SocketClient(path: directory.socketPath)
        client.close()
    }

    @Test("a live daemon on the path refuses a second one")
    func liveRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let first = try ListenerSetup.open(socketPath: directory.socketPath, acceptsSocketActivation: false)
        defer { try? first.listener.close() }
        let error = #expect(throws: StartupError.self) {
            try ListenerSetup.open(socketPath: directory.socketPath, acceptsSocketActivation: false)
        }
        #expect(error?.isAlreadyRunning == true)
        #expect(error?.description.contains("already listening") == true)
    }

    @Test("a file that is not a socket is never replaced")
    func regularFileKept() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let file = try FileDescriptor.open(directory.socketPath, [.writeOnly, .create])
        try file.close()
        #expect(throws: StartupError.self) {
            try ListenerSetup.open(socketPath: directory.socketPath, acceptsSocketActivation: false)
        }
        #expect(try FileSystem.info(directory.socketPath)?.kind == .regular)
    }
}
