import VMServer

/// The ``ConnectionSink`` of an ``InMemoryChannel``: keeps each message the server writes until
/// the channel reads it, and lets a test play the slow reader: with ``holdsBytes`` on, every
/// message counts as pending (``pendingBytes``) until ``flush()``.
package final class InMemorySink: ConnectionSink {
    private var unread: [[UInt8]] = []
    private var readIndex = 0
    /// The server closed the connection.
    package private(set) var isClosed = false
    /// How many times the server closed it (once, unless a bug).
    package private(set) var closeCount = 0
    /// Bytes "not yet written": grows with each message while ``holdsBytes`` is on.
    package var pendingBytes = 0
    /// When false (the default), enqueued bytes count as written at once.
    package var holdsBytes = false
    /// The transport's bound: the sink is full while ``pendingBytes`` reach it (an
    /// ``InMemoryServer`` sets its `maxOutboundBytes`). Fullness is the transport's word.
    package var capacity = Int.max

    package var isFull: Bool { pendingBytes >= capacity }

    init() {}

    package func enqueue(message: UnsafeRawBufferPointer) {
        unread.append(Array(message))
        if holdsBytes { pendingBytes += message.count }
    }

    package func close() {
        isClosed = true
        closeCount += 1
    }

    /// Everything pending counts as written.
    package func flush() { pendingBytes = 0 }

    /// The messages written and not yet read by the channel, as bytes.
    package var messages: [[UInt8]] { Array(unread[readIndex...]) }

    /// The messages written and not yet read by the channel, as text.
    package var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }

    /// The oldest message not yet read, removed.
    func next() -> [UInt8]? {
        guard readIndex < unread.count else { return nil }
        defer {
            readIndex += 1
            if readIndex == unread.count {
                unread.removeAll(keepingCapacity: true)
                readIndex = 0
            }
        }
        return unread[readIndex]
    }
}
