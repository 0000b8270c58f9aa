import JSONCore
import Posix

/// A blocking NDJSON connection for the session benchmark: write lines, read until a response.
final class SessionBenchClient {
    let socket: FileDescriptor
    private var buffer: [UInt8] = []

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    func close() { try? socket.close() }

    func send(_ line: String) throws { try socket.writeAll(Array(line.utf8) + [10]) }

    /// Reads lines until the response with integer id `id`; returns it.
    func response(to id: Int) throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let message = try JSONValue(parsing: String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeSubrange(...newline)
                if message["method"] == nil, message["id"]?.intValue == id { return message }
                continue
            }
            guard let bytes = try socket.read(upTo: 65_536) else { continue }
            if bytes.isEmpty { throw SessionBenchFailure("the daemon closed the connection") }
            buffer.append(contentsOf: bytes)
        }
    }

    /// Sends one request and returns its response.
    func call(_ id: Int, _ method: String, _ params: String = "{}") throws -> JSONValue {
        try send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        return try response(to: id)
    }
}

/// A session benchmark that could not run.
struct SessionBenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
