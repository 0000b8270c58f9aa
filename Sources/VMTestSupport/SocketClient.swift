import JSONCore
import Posix

/// A blocking test client for a daemon socket that speaks either framing: NDJSON lines
/// (``sendLine(_:)``, ``readLine(timeout:)``) or LSP (``sendLSP(_:)``, ``readLSPBody(timeout:)``),
/// plus raw and drip-fed writes. Every read has a deadline; nothing waits forever.
package final class SocketClient {
    package let socket: FileDescriptor
    private var buffer: [UInt8] = []

    /// Connects once (fails at once when nobody listens).
    package init(path: String) throws {
        socket = try UnixSocket.connect(to: UnixSocketAddress(path: path), timeout: .seconds(5))
    }

    /// Connects, retrying while the socket is missing or refuses (a daemon still starting),
    /// until `timeout`; this is how tests wait for readiness.
    package static func connect(path: String, timeout: Duration = Waiting.defaultTimeout) throws -> SocketClient {
        let deadline = Deadline(after: timeout)
        while true {
            do {
                return try SocketClient(path: path)
            } catch let error as SystemError
                where error.errno == SystemError.noSuchFile || error.errno == SystemError.connectionRefused
            {
                if deadline.hasPassed { throw error }
                Waiting.pause(.milliseconds(2))
            }
        }
    }

    // MARK: Writing

    /// Writes bytes as they are.
    package func write(_ bytes: [UInt8]) throws {
        try socket.writeAll(bytes)
    }

    /// Writes `text` and a newline (one NDJSON frame when `text` is one JSON value).
    package func sendLine(_ text: String) throws {
        try write(Array(text.utf8) + [UInt8(ascii: "\n")])
    }

    /// Writes `body` behind a `Content-Length` header.
    package func sendLSP(_ body: String) throws {
        let bytes = Array(body.utf8)
        try write(Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes)
    }

    /// Writes `bytes` in pieces of `chunkSizes` (cycled), each its own `send`, pausing `gap`
    /// between them so the daemon sees split reads: where framing bugs live.
    package func dripFeed(_ bytes: [UInt8], chunkSizes: [Int] = [1], gap: Duration = .microseconds(200)) throws {
        var offset = 0
        var index = 0
        while offset < bytes.count {
            let size = max(1, chunkSizes[index % max(1, chunkSizes.count)])
            let end = min(bytes.count, offset + size)
            try write(Array(bytes[offset..<end]))
            offset = end
            index += 1
            if gap > .zero { Waiting.pause(gap) }
        }
    }

    /// Shuts down the writing side: the daemon reads end of file but may still reply.
    package func finishWriting() throws {
        try UnixSocket.shutdownWriting(socket)
    }

    package func close() {
        try? socket.close()
    }

    // MARK: Reading

    /// The next line (without its newline).
    /// - Throws: ``SocketClientError`` on timeout or when the daemon closed the connection.
    package func readLine(timeout: Duration = Waiting.defaultTimeout) throws -> String {
        let deadline = Deadline(after: timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            try fill(until: deadline, waitingFor: "a line")
        }
    }

    /// The next line parsed as JSON.
    package func readMessage(timeout: Duration = Waiting.defaultTimeout) throws -> JSONValue {
        let line = try readLine(timeout: timeout)
        return try JSONValue(parsing: line)
    }

    /// The next LSP frame's header block and body.
    package func readLSPFrame(timeout: Duration = Waiting.defaultTimeout) throws -> (header: String, body: String) {
        let deadline = Deadline(after: timeout)
        let separator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = Self.find(separator, in: buffer) {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                guard let length = Self.contentLength(header) else {
                    throw SocketClientError.malformed("no Content-Length in \(header.debugDescription)")
                }
                if buffer.count >= end + 4 + length {
                    let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    buffer.removeSubrange(..<(end + 4 + length))
                    return (header, body)
                }
            }
            try fill(until: deadline, waitingFor: "an LSP frame")
        }
    }

    /// Waits for the daemon to close the connection, discarding whatever arrives before.
    /// Returns false at the timeout.
    package func waitForClose(timeout: Duration = Waiting.defaultTimeout) throws -> Bool {
        let deadline = Deadline(after: timeout)
        while true {
            do {
                try fill(until: deadline, waitingFor: "the end")
                buffer.removeAll()
            } catch SocketClientError.closed {
                return true
            } catch SocketClientError.timedOut {
                return false
            }
        }
    }

    /// Bytes received and not yet returned.
    package var bufferedBytes: [UInt8] { buffer }

    /// Reads whatever is available (at least one byte) before `deadline`.
    package func fill(until deadline: Deadline, waitingFor what: String) throws {
        let ready = try socket.wait(for: .readable, timeout: deadline.remaining)
        guard !ready.isEmpty else { throw SocketClientError.timedOut("timed out waiting for \(what)") }
        do {
            guard let bytes = try socket.read(upTo: 65_536) else { return }
            guard !bytes.isEmpty else { throw SocketClientError.closed("the daemon closed the connection") }
            buffer.append(contentsOf: bytes)
        } catch let error as SystemError where error.errno == SystemError.connectionReset {
            throw SocketClientError.closed("connection reset")
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    private static func contentLength(_ header: String) -> Int? {
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingSpaces)
            }
        }
        return nil
    }
}

/// Why a test client read failed.
package enum SocketClientError: Error, CustomStringConvertible {
    case timedOut(String)
    case closed(String)
    case malformed(String)

    package var description: String {
        switch self {
        case .timedOut(let text), .closed(let text), .malformed(let text): text
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
