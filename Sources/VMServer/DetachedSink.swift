/// The sink of a detached session: keeps every message in memory, in order, until
/// `session.resume` hands them to the new connection's sink.
///
/// Its ``pendingBytes`` count what it holds, so the server treats a detached session exactly
/// as a slow reader: once they reach `maxOutboundBytes`, state values coalesce and the loss is
/// reported by `vm.overflow` after the resume (PROTOCOL.md §7 and §18). It never writes
/// anything itself.
final class DetachedSink: ConnectionSink {
    /// The messages, back to back.
    private var bytes: [UInt8] = []
    /// Where each message ends in `bytes`.
    private var ends: [Int] = []
    /// Called by ``close()``: under `--slow-client disconnect` a full detached session expires.
    private let onClose: () -> Void

    init(onClose: @escaping () -> Void) {
        self.onClose = onClose
    }

    func enqueue(message: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: message)
        ends.append(bytes.count)
    }

    var pendingBytes: Int { bytes.count }

    /// How many messages it holds.
    var messageCount: Int { ends.count }

    func close() { onClose() }

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
