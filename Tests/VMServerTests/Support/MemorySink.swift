import JSONCore
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

    func enqueue(message: UnsafeRawBufferPointer) {
        messages.append(Array(message))
        if holdsBytes { pendingBytes += message.count }
    }

    func close() {
        isClosed = true
        closeCount += 1
    }

    func flush() { pendingBytes = 0 }

    /// Removes and returns the messages so far, parsed.
    func take() -> [JSONValue] {
        defer { messages = [] }
        return messages.map { bytes in (try? JSONValue(parsing: bytes)) ?? .string("unparseable: " + String(decoding: bytes, as: UTF8.self)) }
    }

    /// The raw text of the messages so far (not removed).
    var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }
}
