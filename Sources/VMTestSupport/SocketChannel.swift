import JSONCore

/// An ``RPCChannel`` over a real Unix-socket connection to a daemon, in NDJSON framing.
package final class SocketChannel: RPCChannel {
    /// The connection, for what only raw bytes can test (half-close, drip-fed frames).
    package let client: SocketClient

    /// Connects to `path`, retrying (bounded) while the daemon is still starting.
    package init(path: String, timeout: Duration = Waiting.defaultTimeout) throws {
        client = try SocketClient.connect(path: path, timeout: timeout)
    }

    package func send(_ frame: String) async throws {
        try client.sendLine(frame)
    }

    /// Blocks in the socket until a line arrives (or `timeout`), so a reply is read the moment
    /// it comes: tests that race a daemon-side delay (a Follow's load, a Login's latency)
    /// depend on it. Slicing the wait and yielding in between would let other tests' tasks run
    /// meanwhile, but under load it delays this test by their turns, longer than those delays.
    package func receive(timeout: Duration) async throws -> JSONValue {
        let line: String
        do {
            line = try client.readLine(timeout: timeout)
        } catch SocketClientError.timedOut(let text) {
            throw RPCSessionError.timedOut("\(text) within \(timeout)")
        } catch SocketClientError.closed(let text) {
            throw RPCSessionError.closed(text)
        }
        do {
            return try JSONValue(parsing: line)
        } catch {
            throw RPCSessionError.malformed("the daemon wrote a line that is not JSON (\(error)): \(line)")
        }
    }

    package func close() { client.close() }
}
