import VMServer

/// The ``ConnectionSink`` of an ``InMemoryChannel``: keeps each message the server writes until
/// the channel reads it. Everything enqueued counts as written at once (no backpressure).
final class InMemorySink: ConnectionSink {
    private var messages: [[UInt8]] = []
    private var readIndex = 0
    /// The server closed the connection.
    private(set) var isClosed = false

    var pendingBytes: Int { 0 }

    func enqueue(message: UnsafeRawBufferPointer) {
        messages.append(Array(message))
    }

    func close() { isClosed = true }

    /// The oldest message not yet read, removed.
    func next() -> [UInt8]? {
        guard readIndex < messages.count else { return nil }
        defer {
            readIndex += 1
            if readIndex == messages.count {
                messages.removeAll(keepingCapacity: true)
                readIndex = 0
            }
        }
        return messages[readIndex]
    }
}
