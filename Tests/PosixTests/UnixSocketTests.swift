import Posix
import VMTestSupport
import Testing

@Suite("Unix sockets")
struct UnixSocketTests {
    @Test("a client connects, both sides exchange bytes, and EOF follows close")
    func roundTrip() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let listener = try UnixListener.bind(to: address)
        defer { try? listener.close() }

        let client = try UnixSocket.connect(to: address, timeout: .seconds(5))
        #expect(try listener.descriptor.wait(for: .readable, timeout: .seconds(5)).contains(.readable))
        let server = try #require(try listener.accept())
        #expect(try server.isNonBlocking)
        #expect(try server.isCloseOnExec)
        #expect(try client.isCloseOnExec)

        try client.writeAll([UInt8]("ping\n"))
        _ = try server.wait(for: .readable, timeout: .seconds(5))
        #expect(try server.read(upTo: 100) == [UInt8]("ping\n"))
        try server.writeAll([UInt8]("pong\n"))
        #expect(try client.read(upTo: 100) == [UInt8]("pong\n"))
        try client.close()
        _ = try server.wait(for: .readable, timeout: .seconds(5))
        #expect(try server.read(upTo: 100) == [])
    }

    @Test("accept returns nil when no connection is pending")
    func acceptWouldBlock() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let listener = try UnixListener.bind(to: try UnixSocketAddress(path: directory.file("s.sock")))
        defer { try? listener.close() }
        #expect(try listener.accept() == nil)
    }

    @Test("the socket file is created with mode 0600 and removed on close")
    func socketFileMode() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let path = directory.file("s.sock")
        let listener = try UnixListener.bind(to: try UnixSocketAddress(path: path))
        let info = try #require(try FileSystem.info(path))
        #expect(info.kind == .socket)
        #expect(info.permissions == 0o600)
        #expect(info.owner == CurrentProcess.uid)
        try listener.close()
        #expect(try FileSystem.info(path) == nil)
        try listener.close() // idempotent
    }

    @Test("peer credentials on both ends name this process")
    func peerCredentials() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let listener = try UnixListener.bind(to: address)
        defer { try? listener.close() }
        let client = try UnixSocket.connect(to: address)
        _ = try listener.descriptor.wait(for: .readable, timeout: .seconds(5))
        let server = try #require(try listener.accept())
        let seenByServer = try PeerCredentials(of: server)
        let seenByClient = try PeerCredentials(of: client)
        let expected = PeerCredentials(pid: CurrentProcess.pid, uid: CurrentProcess.uid, gid: CurrentProcess.gid)
        #expect(seenByServer == expected)
        #expect(seenByClient == expected)
    }

    @Test("a path too long for sun_path is refused with the limit and the path", arguments: [108, 200])
    func pathTooLong(length: Int) throws {
        let path = "/tmp/" + String(repeating: "x", count: length - 5)
        #expect(path.utf8.count == length)
        do {
            _ = try UnixSocketAddress(path: path)
            Issue.record("expected an error")
        } catch let error as SocketPathError {
            #expect(error == .pathTooLong(path: path, bytes: length, limit: 107))
            let message = String(describing: error)
            #expect(message.contains("107"))
            #expect(message.contains(path))
            #expect(message.contains("sun_path"))
        }
    }

    @Test("a path of exactly 107 bytes fits")
    func longestPathFits() throws {
        let path = "/tmp/" + String(repeating: "y", count: 102)
        let address = try UnixSocketAddress(path: path)
        #expect(address.path == path)
        #expect(UnixSocketAddress.maxPathBytes == 107)
    }

    @Test("connecting to a missing socket names the call, the path and the errno")
    func connectErrorMessage() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let path = directory.file("none.sock")
        do {
            _ = try UnixSocket.connect(to: try UnixSocketAddress(path: path))
            Issue.record("expected an error")
        } catch let error as SystemError {
            #expect(error.errno == SystemError.noSuchFile)
            #expect(error.description == "connect(\(path)): No such file or directory (ENOENT)")
        }
    }

    @Test("binding over a live socket reports EADDRINUSE in the documented format")
    func addressInUseMessage() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let listener = try UnixListener.bind(to: address)
        defer { try? listener.close() }
        do {
            _ = try UnixListener.bind(to: address)
            Issue.record("expected an error")
        } catch let error as SystemError {
            #expect(error.description == "bind(\(address.path)): Address already in use (EADDRINUSE)")
        }
    }

    @Test("abstract addresses work without a file")
    func abstractAddress() throws {
        let address = try UnixSocketAddress(path: "@vmdt-abstract-\(CurrentProcess.pid)")
        #expect(address.isAbstract)
        #expect(address.parentDirectory == nil)
        let listener = try UnixListener.bind(to: address)
        defer { try? listener.close() }
        let client = try UnixSocket.connect(to: address)
        _ = try listener.descriptor.wait(for: .readable, timeout: .seconds(5))
        #expect(try listener.accept() != nil)
        try client.close()
    }

    @Test("an adopted listener is nonblocking, close-on-exec, and keeps its file on close")
    func adoptedListener() throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["s.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("s.sock"))
        let original = try UnixListener.bind(to: address)
        let inherited = FileDescriptor(adopting: original.descriptor.release())
        try inherited.setNonBlocking(false)
        try inherited.setCloseOnExec(false)
        let adopted = try UnixListener.adopt(inherited, address: address)
        #expect(try adopted.descriptor.isNonBlocking)
        #expect(try adopted.descriptor.isCloseOnExec)
        #expect(try adopted.accept() == nil)
        try adopted.close()
        #expect(try FileSystem.info(address.path)?.kind == .socket)
    }
}
