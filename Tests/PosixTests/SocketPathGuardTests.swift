import Posix
import VMTestSupport
import Testing

@Suite("Socket path start-up safety")
struct SocketPathGuardTests {
    @Test("nothing at the path is reported as nothing and binding proceeds")
    func nothingThere() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        #expect(try SocketPathGuard.prepare(address) == .nothing)
        let listener = try UnixListener.bind(to: address)
        try listener.close()
    }

    @Test("a stale socket file nobody listens on is replaced")
    func staleSocketReplaced() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let crashed = try UnixListener.bind(to: address)
        try crashed.descriptor.close() // like a crash: the file stays, nobody listens
        #expect(try FileSystem.info(address.path)?.kind == .socket)
        #expect(try SocketPathGuard.probe(address) == .staleSocket)
        #expect(try SocketPathGuard.prepare(address) == .staleSocket)
        #expect(try FileSystem.info(address.path) == nil)
        let listener = try UnixListener.bind(to: address)
        try listener.close()
    }

    @Test("a live listener makes start-up fail with a clear message, leaving it alone")
    func liveSocketDetected() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let live = try UnixListener.bind(to: address)
        defer { try? live.close() }
        #expect(try SocketPathGuard.probe(address) == .liveListener)
        #expect(throws: SocketPathError.alreadyListening(path: address.path)) {
            try SocketPathGuard.prepare(address)
        }
        let message = String(describing: SocketPathError.alreadyListening(path: address.path))
        #expect(message.contains("a live vmd is already listening on \(address.path)"))
        #expect(try FileSystem.info(address.path)?.kind == .socket)
        // The live daemon still accepts: our probe connection is queued for it.
        #expect(try live.accept() != nil)
    }

    @Test("a file that is not a socket is refused and never deleted")
    func nonSocketRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let path = directory.file("s.sock")
        let file = try FileDescriptor.open(path, [.writeOnly, .create])
        try file.writeAll([UInt8]("precious"))
        try file.close()
        let address = try UnixSocketAddress(path: path)
        #expect(try SocketPathGuard.probe(address) == .notASocket)
        #expect(throws: SocketPathError.notASocket(path: path)) { try SocketPathGuard.prepare(address) }
        #expect(try FileSystem.readFile(path) == [UInt8]("precious"))
    }

    @Test("a missing socket directory is created with mode 0700, parents included")
    func directoryCreated() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["a/b/s.sock", "a/b", "a"]) }
        let address = try UnixSocketAddress(path: directory.file("a/b/s.sock"))
        try SocketPathGuard.prepare(address)
        let info = try #require(try FileSystem.info(directory.file("a/b")))
        #expect(info.kind == .directory)
        #expect(info.permissions == 0o700)
        let listener = try UnixListener.bind(to: address)
        try listener.close()
    }

    @Test("a symlinked socket directory is refused")
    func symlinkRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["real", "link"]) }
        try FileSystem.makeDirectory(directory.file("real"), permissions: 0o700)
        try FileSystem.makeSymbolicLink(at: directory.file("link"), pointingTo: directory.file("real"))
        let address = try UnixSocketAddress(path: directory.file("link/s.sock"))
        #expect(throws: SocketPathError.directoryIsSymlink(path: directory.file("link"))) {
            try SocketPathGuard.prepare(address)
        }
    }

    @Test("a socket directory open to group or others is refused", arguments: [UInt32(0o750), 0o705, 0o777])
    func openDirectoryRefused(mode: UInt32) throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["d"]) }
        let path = directory.file("d")
        try FileSystem.makeDirectory(path)
        try FileSystem.setPermissions(path, mode)
        do {
            try PrivateDirectory.ensure(path)
            Issue.record("expected an error")
        } catch let error as SocketPathError {
            #expect(error == .directoryTooOpen(path: path, permissions: mode))
            #expect(String(describing: error).contains("chmod 700 \(path)"))
        }
    }

    @Test("a socket directory owned by another uid is refused")
    func foreignOwnerRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let other = CurrentProcess.uid &+ 4242
        #expect(throws: SocketPathError.directoryNotOwned(path: directory.path, owner: CurrentProcess.uid, expected: other)) {
            try PrivateDirectory.check(directory.path, uid: other)
        }
    }

    @Test("a regular file where the socket directory should be is refused")
    func fileAsDirectoryRefused() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["f"]) }
        try FileDescriptor.open(directory.file("f"), [.writeOnly, .create]).close()
        #expect(throws: SocketPathError.notADirectory(path: directory.file("f"))) {
            try PrivateDirectory.ensure(directory.file("f"))
        }
    }
}
