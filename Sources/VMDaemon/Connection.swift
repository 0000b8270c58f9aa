import JSONRPC
import Posix
import VMServer

/// One accepted client connection: its socket, its framer, and its bounded outbound buffer.
///
/// It is the ``VMServer/ConnectionSink`` the handler writes to. ``enqueue(message:)`` only
/// appends (framed) to the buffer and asks the daemon for a flush; the daemon writes every
/// connection that has output once per loop iteration, after all reads of that iteration, so
/// a burst of replies costs one `send`. Loop thread only, like everything it touches.
final class Connection: ConnectionSink {
    /// Where a connection is in its life.
    enum Phase: Equatable {
        /// Reading requests and writing replies.
        case open
        /// The peer shut down its writing side (read hit end of file): replies can still be
        /// written; the daemon closes it once everything is written and the handler has no
        /// pending work for it (PROTOCOL.md §3), or when the peer hangs up or a write fails.
        case peerFinishedWriting
        /// We are closing it: nothing more is read, what is queued is written, then it closes
        /// (or the linger timer closes it anyway).
        case closing
        /// Closed and forgotten; later calls do nothing.
        case closed
    }

    let id: ConnectionID
    let peer: PeerIdentity
    let descriptor: FileDescriptor
    var registration: IORegistration?
    /// What the loop currently watches for (kept to skip redundant `epoll_ctl` calls).
    var interest: IOInterest = .readable
    /// (Unchecked exclusivity: used once per frame on the loop thread; `nextFrame()` and
    /// `append` run to their end without calling out, so no access can overlap another.)
    @exclusivity(unchecked) var framer: FramingDetector
    var phase = Phase.open
    /// The outbound buffer reached `maxOutboundBytes`: reading is paused until it falls under
    /// the low-water mark, then the handler hears `connectionDrained`.
    var isOverLimit = false
    /// The last `send` hit `EAGAIN`: wait for writability before the next one.
    var isWriteBlocked = false
    /// Already in the daemon's list of connections to flush this iteration.
    var isQueuedForFlush = false
    /// `--slow-client disconnect` tripped: drop output, the daemon closes it shortly.
    var isAborting = false
    /// Fires when a closing connection takes too long to flush.
    var lingerTimer: TimerID?
    /// Why the connection is closing, for the log line.
    var closeReason = "closed by the daemon"

    private let maxOutboundBytes: Int
    private var outputFormat: FrameFormat = .lines
    // Unchecked exclusivity: `enqueue` runs once per subscriber per delivered value (50 times a
    // value in W3), usually nested inside the server's own accesses, and the runtime's dynamic
    // check showed up in profiles (AccessSet::insert). It is safe because the buffer is touched
    // only by this class's own methods, on the loop thread, and none of them calls out (to the
    // handler or anything else) while an access to it is in progress, so accesses never overlap.
    @exclusivity(unchecked) private var outbound: [UInt8] = []
    @exclusivity(unchecked) private var outboundStart = 0
    private unowned let daemon: Daemon

    init(id: ConnectionID, peer: PeerIdentity, descriptor: FileDescriptor, daemon: Daemon) {
        self.id = id
        self.peer = peer
        self.descriptor = descriptor
        self.daemon = daemon
        self.maxOutboundBytes = daemon.configuration.limits.maxOutboundBytes
        self.framer = FramingDetector(maxFrameBytes: daemon.configuration.limits.maxFrameBytes)
    }

    /// The framing of replies: decided by the first byte received (NDJSON until then).
    func adoptDetectedFormat() {
        if let format = framer.format { outputFormat = format }
    }

    // MARK: ConnectionSink

    func enqueue(message: UnsafeRawBufferPointer) {
        guard phase != .closed, !isAborting else { return }
        switch outputFormat {
        case .lines:
            outbound.append(contentsOf: message)
            outbound.append(UInt8(ascii: "\n"))
        case .contentLength:
            outbound.append(contentsOf: "Content-Length: ".utf8)
            outbound.append(contentsOf: String(message.count).utf8)
            outbound.append(contentsOf: "\r\n\r\n".utf8)
            outbound.append(contentsOf: message)
        }
        if !isQueuedForFlush { daemon.queueFlush(self) }
        if !isOverLimit, pendingBytes >= maxOutboundBytes { daemon.outboundLimitReached(self) }
    }

    var pendingBytes: Int { outbound.count - outboundStart }

    func close() {
        daemon.close(self, reason: "closed by the server")
    }

    func workEnded() {
        // A half-closed connection may now be finished: the flush asks the handler.
        if phase == .peerFinishedWriting, !isQueuedForFlush { daemon.queueFlush(self) }
    }

    // MARK: Writing

    /// What one attempt to write the buffer achieved.
    enum FlushOutcome {
        /// Everything queued is written.
        case empty
        /// The socket is full; some bytes remain.
        case blocked
        /// The peer is gone (or the socket failed).
        case failed(SystemError)
    }

    /// Sends as much of the buffer as the socket takes now.
    func writePending() -> FlushOutcome {
        while outboundStart < outbound.count {
            let result: WriteResult
            do {
                result = try outbound.withUnsafeBytes { bytes in
                    try descriptor.send(UnsafeRawBufferPointer(rebasing: bytes[outboundStart...]))
                }
            } catch let error as SystemError {
                return .failed(error)
            } catch {
                return .failed(SystemError(call: "send(\(id))", errno: SystemError.brokenPipe))
            }
            switch result {
            case .bytes(let count): outboundStart += count
            case .wouldBlock:
                compactOutbound()
                return .blocked
            }
        }
        compactOutbound()
        return .empty
    }

    /// Forgets unsent output (the peer is gone, or is being disconnected).
    func discardOutbound() {
        outbound = []
        outboundStart = 0
    }

    private func compactOutbound() {
        if outboundStart == outbound.count {
            // Keep a modest buffer for the next burst; give a large one back (1,000 idle
            // connections must not each hold megabytes after one big reply).
            if outbound.capacity > 65_536 { outbound = [] } else { outbound.removeAll(keepingCapacity: true) }
            outboundStart = 0
        } else if outboundStart > 65_536, outboundStart * 2 >= outbound.count {
            outbound.removeSubrange(0..<outboundStart)
            outboundStart = 0
        }
    }
}
