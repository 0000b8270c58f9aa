import JSONCore
import Posix

/// One connection of the soak: blocking writes, reads with a 30 s timeout (a stuck daemon
/// fails the run instead of hanging it), or non-blocking drains once ``makeNonBlocking()`` ran.
final class SoakClient {
    let socket: FileDescriptor
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var nextID: Int64 = 0
    /// Lines received by ``drain()`` so far.
    private(set) var linesDrained = 0

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    /// Writes one message (a newline is added).
    func send(_ text: String) throws {
        try socket.writeAll(Array(text.utf8) + [10])
    }

    /// Sends a request for `method` with `params` (JSON text) and returns its response, skipping
    /// notifications. Throws if the response is an error.
    @discardableResult
    func call(_ method: String, _ params: String = "{}") throws -> JSONValue {
        nextID += 1
        let id = nextID
        try send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        while true {
            let message = try JSONValue(parsing: try readLine())
            guard message["method"] == nil, message["id"] == .integer(id) else { continue }
            if let error = message["error"] { throw SoakFailure("\(method) failed: \(error)") }
            return message["result"] ?? .null
        }
    }

    /// From now on ``drain()`` reads what has arrived without waiting.
    func makeNonBlocking() throws { try socket.setNonBlocking(true) }

    /// Reads everything that has arrived (non-blocking sockets only) and counts its lines.
    /// Returns `false` once the daemon closed the connection.
    func drain() throws -> Bool {
        while true {
            let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            switch result {
            case .bytes(let count):
                linesDrained += chunk[0..<count].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            case .endOfFile:
                return false
            case .wouldBlock:
                return true
            }
        }
    }

    func close() { try? socket.close() }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            switch result {
            case .bytes(let count): buffer.append(contentsOf: chunk[0..<count])
            case .endOfFile: throw SoakFailure("the daemon closed a connection")
            case .wouldBlock: throw SoakFailure("no reply within 30 s")
            }
        }
    }
}

/// Why a soak run stopped.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
