import JSONRPC
import Posix
import VMServer

/// One accepted client connection: its socket, its framer, and its bounded outbound queue.
///
/// It is the ``VMServer/ConnectionSink`` the handler writes to. ``enqueue(message:)`` only
/// appends (framed) to the queue and asks the daemon for a flush; the daemon writes every
/// connection that has output once per loop iteration, after all reads of that iteration, so
/// a burst of replies costs one `send` per chunk. Loop thread only, like everything it touches.
///
/// The transport alone decides when the queue is full (``maxOutboundBytes``) and what follows
/// (``VMProtocol/SlowClientMode``): reading pauses until the queue drains, or the reader is
/// disconnected. The server hears it through ``isFull`` and `connectionDrained`.
final class Connection: ConnectionSink {
    /// Where a connection is in its life: the one place its lifecycle is kept.
    enum State: Equatable {
        /// Reading requests and writing replies. `paused`: the outbound queue reached
        /// `maxOutboundBytes`; reading waits until it falls under the low-water mark, then the
        /// handler hears `connectionDrained`.
        case open(paused: Bool)
        /// The peer shut down its writing side (read hit end of file): replies can still be
        /// written; the daemon closes it once everything is written and the handler has no
        /// pending work for it (PROTOCOL.md §3), or when the peer hangs up or a write fails.
        /// `paused` as for ``open(paused:)`` (frames read before the end may still wait).
        case peerFinishedWriting(paused: Bool)
        /// We are closing it: nothing more is read, what is queued is written, then it closes
        /// (or the linger timer closes it anyway).
        case closing
        /// `--slow-client disconnect` tripped: output is dropped and the next flush closes it.
        case aborting
        /// Closed and forgotten; later calls do nothing.
        case closed

        /// The outbound queue is over the limit and its drain not yet seen (reading paused).
        var isPaused: Bool {
            switch self {
            case .open(let paused), .peerFinishedWriting(let paused): paused
            case .closing, .aborting, .closed: false
            }
        }

        /// Frames read may be handed to the handler now.
        var takesFrames: Bool {
            switch self {
            case .open(let paused), .peerFinishedWriting(let paused): !paused
            case .closing, .aborting, .closed: false
            }
        }

        /// The same state with reading paused (or resumed); other states are unchanged.
        func paused(_ paused: Bool) -> State {
            switch self {
            case .open: .open(paused: paused)
            case .peerFinishedWriting: .peerFinishedWriting(paused: paused)
            case .closing, .aborting, .closed: self
            }
        }
    }

    let id: ConnectionID
    let peer: PeerIdentity
    let descriptor: FileDescriptor
    var registration: IORegistration?
    /// What the loop currently watches for (kept to skip redundant `epoll_ctl` calls).
    var interest: IOInterest = .readable
    /// (Unchecked exclusivity: used once per frame on the loop thread; `nextFrame()` and
    /// `append` run to their end without calling out, so no access can overlap another.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var framer: FramingDetector
    var state = State.open(paused: false)
    /// The last `send` hit `EAGAIN`: wait for writability before the next one. (A fact about
    /// the socket, not the connection's life: it holds in any state but `closed`.)
    var isWriteBlocked = false
    /// Already in the daemon's list of connections to flush this iteration (that list's
    /// bookkeeping).
    var isQueuedForFlush = false
    /// Fires when a closing connection takes too long to flush.
    var lingerTimer: TimerID?
    /// Why the connection is closing, for the log line.
    var closeReason = "closed by the daemon"

    let maxOutboundBytes: Int
    /// The handler its frames go to: the daemon's, which is set before the first connection and
    /// never replaced. A `let` of its own so that handing a frame over costs no reference
    /// counting: reading the daemon's `var` retained and released the handler once per read
    /// (on the runtime's slow path: the server has weak references, so a side table); an
    /// immutable field of a connection the caller
    /// holds is borrowed instead. The server holds this connection (as a sink) only until
    /// `connectionClosed`, which every connection gets (`Daemon.terminate`, shutdown included),
    /// so the two never keep each other alive.
    let handler: any ConnectionHandler
    /// `Daemon.flushQueued` as deferred work (queued by the connection that first has output in
    /// a loop iteration), built once per connection. It holds the daemon strongly: calling it
    /// then costs no reference counting, where a closure over a weak daemon would load a weak
    /// reference (a retain and a release on the runtime's slow path, every round trip), and a
    /// flush still pending in the loop keeps the daemon alive.
    /// The daemon forgets the connection when it closes (`Daemon.terminate`, shutdown
    /// included), so the two never keep each other alive.
    let flushWork: () -> Void
    private var outputFormat: FrameFormat = .lines
    // Unchecked exclusivity: `enqueue` runs once per subscriber per delivered value (50 times a
    // value in W3), usually nested inside the server's own accesses, and the runtime's dynamic
    // check showed up in profiles (AccessSet::insert). It is safe because the queue is touched
    // only by this class's own methods, on the loop thread, and none of them calls out (to the
    // handler or anything else) while an access to it is in progress (the `write` closure of
    // `enqueue(maximumBytes:_:)` only writes into the bytes it is given), so accesses never
    // overlap.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var outbound: OutboundQueue
    /// The daemon serving this connection, held without reference counting: the daemon holds
    /// every open connection (`Daemon.connections`) and outlives them, so a use after it is
    /// gone would already be a bug (a plain `unowned` traps there). Not `unowned`: every read
    /// cost a strong retain and release per enqueued message, on the runtime's slow path (the
    /// daemon has weak references, so its counts live in a side table); ``withDaemon(_:)``
    /// lends it for one call with neither.
    private let unretainedDaemon: Unmanaged<Daemon>

    /// The daemon, as a plain reference (a retain and a release; off the hot path).
    private var daemon: Daemon { unretainedDaemon.takeUnretainedValue() }

    /// Calls `body` with the daemon, without retaining it for the call.
    @inline(__always)
    private func withDaemon<Result>(_ body: (Daemon) -> Result) -> Result {
        unretainedDaemon._withUnsafeGuaranteedRef(body)
    }

    init(id: ConnectionID, peer: PeerIdentity, descriptor: FileDescriptor, daemon: Daemon) {
        self.id = id
        self.peer = peer
        self.descriptor = descriptor
        self.unretainedDaemon = Unmanaged.passUnretained(daemon)
        self.maxOutboundBytes = daemon.configuration.limits.maxOutboundBytes
        self.handler = daemon.handler
        // Through an object of its own: a closure capturing only the daemon would use the
        // daemon itself as its context, and the loop retains the context it holds (the slow path
        // again).
        let target = FlushTarget(daemon: daemon)
        self.flushWork = { target.daemon.flushQueued() }
        self.framer = FramingDetector(maxFrameBytes: daemon.configuration.limits.maxFrameBytes)
        self.outbound = OutboundQueue(pool: daemon.outboundPool)
    }

    /// What ``flushWork`` holds: the daemon, behind an object that has no weak references.
    private final class FlushTarget {
        let daemon: Daemon
        init(daemon: Daemon) { self.daemon = daemon }
    }

    /// The framing of replies: decided by the first byte received (NDJSON until then).
    ///
    /// Asked after every read, answered from the framer once: the framer is another module's
    /// `package` type, whose `format` is a real call that copies the framer out and back.
    func adoptDetectedFormat() {
        guard !hasDetectedFormat, let format = framer.format else { return }
        outputFormat = format
        hasDetectedFormat = true
    }

    /// ``outputFormat`` follows the framer (the first byte has been read); it never changes after.
    private var hasDetectedFormat = false

    /// Whether output is still queued: anything but `aborting` and `closed`, and a closing
    /// connection only under `maxOutboundBytes` (PROTOCOL.md §11: the bound holds in every
    /// state; a closing connection is never drained by the daemon's pause, and its peer may
    /// never read again).
    private var takesOutput: Bool {
        switch state {
        case .open, .peerFinishedWriting: true
        case .closing: outbound.count < maxOutboundBytes
        case .aborting, .closed: false
        }
    }

    /// Bytes refused because the connection was closing with its queue at `maxOutboundBytes`
    /// (reported in the close's log line).
    private(set) var bytesDroppedWhileClosing = 0

    // MARK: ConnectionSink

    func enqueue(message: UnsafeRawBufferPointer) {
        guard takesOutput else { return refused(message.count) }
        switch outputFormat {
        case .lines:
            outbound.append(maximumBytes: message.count + 1) { buffer in
                guard let base = buffer.baseAddress, let source = message.baseAddress else {
                    buffer[0] = UInt8(ascii: "\n")
                    return 1
                }
                base.copyMemory(from: source, byteCount: message.count)
                buffer[message.count] = UInt8(ascii: "\n")
                return message.count + 1
            }
        case .contentLength:
            appendContentLengthHeader(message.count)
            outbound.append(message)
        }
        enqueued()
    }

    func enqueue(maximumBytes: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
        guard takesOutput else { return refused(maximumBytes) }
        switch outputFormat {
        case .lines:
            // Written in place, then the newline after it.
            outbound.append(maximumBytes: maximumBytes + 1) { buffer in
                let count = write(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<maximumBytes]))
                buffer[count] = UInt8(ascii: "\n")
                return count + 1
            }
        case .contentLength:
            // The header needs the length first: built aside.
            withUnsafeTemporaryAllocation(byteCount: maximumBytes, alignment: 1) { raw in
                let count = write(raw)
                appendContentLengthHeader(count)
                outbound.append(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
            }
        }
        enqueued()
    }

    /// Counts a message a closing connection had no room for (`count`: its size, or its bound).
    private func refused(_ count: Int) {
        if state == .closing { bytesDroppedWhileClosing += count }
    }

    private func appendContentLengthHeader(_ length: Int) {
        var header = Array("Content-Length: ".utf8)
        header.append(contentsOf: String(length).utf8)
        header.append(contentsOf: "\r\n\r\n".utf8)
        header.withUnsafeBytes { outbound.append($0) }
    }

    @inline(__always)
    private func enqueued() {
        if !isQueuedForFlush { withDaemon { $0.queueFlush(self) } }
        // Once per crossing: a paused, closing or aborting connection is past this point.
        if state.takesFrames, pendingBytes >= maxOutboundBytes { daemon.outboundLimitReached(self) }
    }

    var pendingBytes: Int { outbound.count }

    /// Full from the moment the queue reaches `maxOutboundBytes` until the daemon reports the
    /// drain (and for good once the reader is being disconnected). A closing connection is
    /// never drained by a pause: it is full whenever its queue is at the bound, so the server
    /// coalesces its subscriptions and skips its monitors until it is gone.
    var isFull: Bool {
        switch state {
        case .open(let paused), .peerFinishedWriting(let paused): paused
        case .closing: outbound.count >= maxOutboundBytes
        case .aborting, .closed: true
        }
    }

    func close() {
        daemon.close(self, reason: "closed by the server")
    }

    func workEnded() {
        // A half-closed connection may now be finished: the flush asks the handler.
        if case .peerFinishedWriting = state, !isQueuedForFlush { daemon.queueFlush(self) }
    }

    // MARK: Writing

    /// What one attempt to write the queue achieved.
    enum FlushOutcome {
        /// Everything queued is written.
        case empty
        /// The socket is full; some bytes remain.
        case blocked
        /// The peer is gone (or the socket failed).
        case failed(SystemError)
    }

    /// Sends as much of the queue as the socket takes now.
    func writePending() -> FlushOutcome {
        do {
            return try outbound.send(to: descriptor) ? .empty : .blocked
        } catch let error as SystemError {
            return .failed(error)
        } catch {
            return .failed(SystemError(call: "send(\(id))", errno: SystemError.brokenPipe))
        }
    }

    /// ``writePending()`` for the first `limit` queued bytes at most (the rest waits for the
    /// durable-instance store's sync, Daemon+GroupCommit.swift); `.empty` once they are sent.
    func writePending(limit: Int) -> FlushOutcome {
        do {
            return try outbound.send(to: descriptor, limit: limit) ? .empty : .blocked
        } catch let error as SystemError {
            return .failed(error)
        } catch {
            return .failed(SystemError(call: "send(\(id))", errno: SystemError.brokenPipe))
        }
    }

    /// Forgets unsent output (the peer is gone, or is being disconnected).
    func discardOutbound() {
        outbound.removeAll()
    }
}
