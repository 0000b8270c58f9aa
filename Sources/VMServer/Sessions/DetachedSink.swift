/// The sink of a detached session: keeps every message in memory, in order, until
/// `session.resume` hands them to the new connection's sink.
///
/// It is the detached session's transport, so it owns "full" as the daemon's connections do:
/// once what it holds reaches `maxOutboundBytes` it says ``isFull``, the server coalesces state
/// values and reports the loss by `vm.overflow` after the resume (PROTOCOL.md §7 and §18); under
/// `--slow-client disconnect` it closes instead (the session expires). It never writes anything
/// itself.
final class DetachedSink: ConnectionSink {
    /// The messages, back to back.
    private var bytes: [UInt8] = []
    /// Where each message ends in `bytes`.
    private var ends: [Int] = []
    /// The bound: `maxOutboundBytes`.
    private let capacity: Int
    /// `--slow-client disconnect`: reaching the bound closes the sink.
    private let closesWhenFull: Bool
    private var isClosed = false
    /// Called once by ``close()``: the detached session expires.
    private let onClose: () -> Void

    init(capacity: Int, closesWhenFull: Bool, onClose: @escaping () -> Void) {
        self.capacity = capacity
        self.closesWhenFull = closesWhenFull
        self.onClose = onClose
    }

    func enqueue(message: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        bytes.append(contentsOf: message)
        ends.append(bytes.count)
        if closesWhenFull && isFull { close() }
    }

    var pendingBytes: Int { bytes.count }

    var isFull: Bool { bytes.count >= capacity }

    /// How many messages it holds.
    var messageCount: Int { ends.count }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        onClose()
    }

    /// Enqueues every held message on `sink`, in order, and forgets them.
    func flush(to sink: any ConnectionSink) {
        bytes.withUnsafeBytes { all in
            var start = 0
            for end in ends {
                sink.enqueue(message: UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        bytes = []
        ends = []
    }
}
