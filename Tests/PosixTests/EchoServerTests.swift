import Posix
import VMTestSupport
import Testing

/// The shape the daemon takes: a listener and its connections on one loop thread, clients
/// elsewhere.
@Suite("Echo server on the event loop")
struct EchoServerTests {
    /// Accepts connections and echoes every byte back; all state lives on the loop thread.
    private final class EchoServer {
        let loop: EventLoop
        let listener: UnixListener
        var connections: [Int32: (FileDescriptor, IORegistration)] = [:]

        init(loop: EventLoop, listener: UnixListener) throws {
            self.loop = loop
            self.listener = listener
            _ = try loop.register(listener.descriptor, interest: .readable) { [unowned self] _ in self.acceptAll() }
        }

        func acceptAll() {
            while let client = try? listener.accept() {
                let registration = try? loop.register(client, interest: .readable) { [unowned self] _ in
                    self.echo(client)
                }
                if let registration { connections[client.rawValue] = (client, registration) }
            }
        }

        func echo(_ client: FileDescriptor) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let result = try? buffer.withUnsafeMutableBytes { try client.read(into: $0) }
            switch result {
            case .bytes(let count)?:
                try? client.writeAll(buffer[..<count]) // small payloads: the socket buffer has room
            case .wouldBlock?:
                return
            case .endOfFile?, nil:
                if let (descriptor, registration) = connections.removeValue(forKey: client.rawValue) {
                    loop.deregister(registration)
                    try? descriptor.close()
                }
            }
        }
    }

    @Test("a thousand concurrent clients each get their own bytes back")
    func thousandClients() throws {
        try ResourceLimits.raiseOpenFileLimit()
        let directory = try TemporarySocketDirectory()
        defer { directory.remove(["echo.sock"]) }
        let address = try UnixSocketAddress(path: directory.file("echo.sock"))
        try SocketPathGuard.prepare(address)
        let listener = try UnixListener.bind(to: address)
        let serverThread = try EventLoopThread.start { loop in
            let server = try EchoServer(loop: loop, listener: listener)
            // Keep the server alive as long as the loop runs.
            loop.schedule(after: .seconds(3600)) { _ = server }
        }
        defer {
            serverThread.stopAndJoin()
            try? listener.close()
        }
        var clients: [FileDescriptor] = []
        for _ in 0..<1_000 {
            clients.append(try UnixSocket.connect(to: address, timeout: .seconds(10)))
        }
        for (index, client) in clients.enumerated() {
            try client.writeAll([UInt8]("client \(index)\n"))
        }
        for (index, client) in clients.enumerated() {
            try UnixSocket.setTimeout(client, receive: true, .seconds(10))
            var received: [UInt8] = []
            let expected = [UInt8]("client \(index)\n")
            while received.count < expected.count, let chunk = try client.read(upTo: 64), !chunk.isEmpty {
                received += chunk
            }
            #expect(received == expected)
        }
        for client in clients { try client.close() }
    }
}
