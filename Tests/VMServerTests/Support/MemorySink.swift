import JSONCore
import Testing
import VMProtocol
import VMServer

/// An in-memory ``ConnectionSink``: keeps every message, and counts pending bytes until the
/// test says they were written (``flush()``), so tests can fill the buffer at will.
final class MemorySink: ConnectionSink {
    private(set) var messages: [[UInt8]] = []
    private(set) var isClosed = false
    private(set) var closeCount = 0
    /// Bytes "not yet written": grows with each message until ``flush()``.
    var pendingBytes: Int = 0
    /// When false, enqueued bytes count as written at once.
    var holdsBytes = false
    /// The transport's bound: the sink is full while ``pendingBytes`` reach it (the fixture
    /// sets the server's `maxOutboundBytes`).
    var capacity = Int.max

    var isFull: Bool { pendingBytes >= capacity }

    func enqueue(message: UnsafeRawBufferPointer) {
        messages.append(Array(message))
        if holdsBytes { pendingBytes += message.count }
    }

    func close() {
        isClosed = true
        closeCount += 1
    }

    func flush() { pendingBytes = 0 }

    /// Removes and returns the messages so far, parsed. Every message the server writes is
    /// checked on the way: JSON-RPC 2.0, and each error's code agrees with its `data.name`
    /// (PROTOCOL.md section 10), inside batch responses too.
    func take() -> [JSONValue] {
        defer { messages = [] }
        return messages.map { bytes in
            guard let message = try? JSONValue(parsing: bytes) else {
                Issue.record("the server wrote invalid JSON: \(String(decoding: bytes, as: UTF8.self))")
                return .null
            }
            for single in message.arrayValue ?? [message] { Self.check(single) }
            return message
        }
    }

    static func check(_ message: JSONValue) {
        #expect(message["jsonrpc"] == "2.0", "\(message)")
        guard let error = message["error"] ?? message["params"]?["error"] else { return }
        let code = VMErrorCode(rawValue: error["code"]?.intValue ?? 0)
        #expect(code.name != nil && error["data"]?["name"]?.stringValue == code.name, "code and data.name disagree: \(error)")
        #expect(error["message"]?.stringValue?.isEmpty == false)
    }

    /// The raw text of the messages so far (not removed).
    var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }
}
