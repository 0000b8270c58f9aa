import JSONCore
import VMProtocol
import JSONRPC
import Posix

/// The loop-thread side of ``ClientCore``: connecting, reading, writing, losing the
/// connection and reconnecting. Every function here runs on the client's event-loop thread.
extension ClientCore {
    /// Connects and starts reading. Throws ``VMClientError`` when nobody answers.
    /// - Parameter announce: open the link to callers at once; false while a session is
    ///   resumed first (ClientCore+Session.swift opens it then).
    func open(on loop: EventLoop, announce: Bool = true) throws(VMClientError) {
        let address = try location.address()
        let socket: FileDescriptor
        do {
            socket = try UnixSocket.connectNonBlocking(to: address)
        } catch let error as SystemError {
            throw .cannotConnect(path: location.path, reason: VMBlockingConnection.explain(error))
        } catch {
            throw .cannotConnect(path: location.path, reason: "\(error)")
        }
        let reader = SocketReader(socket: socket)
        let registration: IORegistration
        do {
            registration = try loop.register(socket, interest: .readable) { [weak self] events in
                self?.socketReady(events, reader: reader, on: loop)
            }
        } catch {
            try? socket.close()
            throw .cannotConnect(path: location.path, reason: "cannot watch the socket: \(error)")
        }
        state.withLock { state in
            if announce { state.link = .open }
            state.socket = socket
            state.registration = registration
            state.watchingWritable = false
            state.outbound.removeAll()
            state.flushRequested = false
        }
    }

    /// Writes queued bytes until done or the kernel buffer is full; then waits for writability.
    func flush(on loop: EventLoop) {
        while true {
            let (socket, registration, bytes) = state.withLock { state in
                let bytes = state.outbound
                state.outbound = []
                if bytes.isEmpty { state.flushRequested = false }
                return (state.socket, state.registration, bytes)
            }
            guard let socket, let registration, !bytes.isEmpty else {
                if let registration { watchWritable(false, registration, on: loop) }
                return
            }
            var offset = 0
            do {
                while offset < bytes.count {
                    let result = try bytes.withUnsafeBytes { buffer in
                        try socket.send(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                    }
                    guard case .bytes(let count) = result else { break }
                    offset += count
                }
            } catch {
                connectionLost("writing failed: \(error)", on: loop)
                return
            }
            if offset < bytes.count {
                // Kernel buffer full: keep the rest in front of anything queued meanwhile.
                state.withLock { $0.outbound = Array(bytes[offset...]) + $0.outbound }
                watchWritable(true, registration, on: loop)
                return
            }
        }
    }

    private func watchWritable(_ wanted: Bool, _ registration: IORegistration, on loop: EventLoop) {
        let change = state.withLock { state in
            defer { state.watchingWritable = wanted }
            return state.watchingWritable != wanted
        }
        guard change else { return }
        try? loop.modify(registration, interest: wanted ? [.readable, .writable] : .readable)
    }

    private func socketReady(_ events: IOEvents, reader: SocketReader, on loop: EventLoop) {
        if events.contains(.writable) { flush(on: loop) }
        guard events.contains(.readable) || events.contains(.hangup) || events.contains(.error) else { return }
        // One read's messages are routed before the next read: a backlog of megabytes goes
        // through in 64 KiB batches (bounded arrays, one consumer wake per batch), not as
        // one batch of everything. The registration is level-triggered, so after a few
        // chunks the loop runs its other work and comes back for the rest.
        for _ in 0..<SocketReader.chunksPerReadiness {
            var outcome = reader.readChunk()
            if let framingError = route(framesOf: reader) { outcome.ending = outcome.ending ?? framingError }
            if let ending = outcome.ending {
                connectionLost(ending, on: loop)
                return
            }
            guard outcome.mayHaveMore else { return }
        }
    }

    /// Fails every pending call, ends every sequence, tells the owner, and reconnects if asked.
    /// With a resumable session (ClientCore+Session.swift) the calls, subscriptions and
    /// monitors are kept instead, for the resume.
    func connectionLost(_ reason: String, on loop: EventLoop) {
        var unanswered: [SubscriptionSink] = []
        let taken = state.withLock { state -> (FileDescriptor?, IORegistration?, [Waiter], [SubscriptionSink], [MonitorSink])? in
            if case .closed = state.link { return nil }
            guard state.socket != nil else { return nil }
            state.link = .down(reason: reason)
            unanswered = Self.unansweredResubscribes(state.pending)
            let keep = reconnectPolicy != nil && state.session.isResumable
            defer {
                if keep {
                    state.pending = state.pending.filter { if case .caller = $0.value { true } else { false } }
                    state.session.heldBelow = state.nextID
                    state.session.phase = .idle
                } else {
                    state.pending = [:]
                    state.subscriptions = [:]
                    state.lastValues = [:]
                    state.patchSeqs = [:]
                    state.monitors = [:]
                    state.followed = [:]
                    state.renamed = [:]
                    state.heldAtShutdown = []
                }
                state.outbound = []
                state.flushRequested = false
                state.socket = nil
                state.registration = nil
            }
            if keep { return (state.socket, state.registration, [], [], []) }
            return (state.socket, state.registration, Array(state.pending.values),
                    Array(state.subscriptions.values), Array(state.monitors.values))
        }
        guard let (socket, registration, waiters, subscriptions, monitors) = taken else { return }
        if let registration { loop.deregister(registration) }
        try? socket?.close()
        let error = VMClientError.disconnected(reason: reason)
        for waiter in waiters {
            if case .caller(let continuation, let opening) = waiter {
                Self.finish(opening, throwing: error)
                continuation.resume(throwing: error)
            }
        }
        for sink in subscriptions { sink.finish(throwing: error) }
        for sink in monitors { sink.finish(throwing: error) }
        for sink in unanswered {
            sink.yield(.closed(reason: "daemonRestarted"))
            sink.finish()
        }
        events.yield(.disconnected(reason: reason))
        if reconnectPolicy != nil { scheduleReconnect(on: loop) }
    }

    private func scheduleReconnect(on loop: EventLoop) {
        guard let policy = reconnectPolicy else { return }
        let attempt: Int? = state.withLock { state in
            guard case .down = state.link else { return nil }
            state.reconnectAttempt += 1
            return state.reconnectAttempt
        }
        guard let attempt else { return }
        if let limit = policy.maximumAttempts, attempt > limit {
            releaseHeldSession(reason: "gaveUp", failure: .closed)
            state.withLock { $0.link = .closed }
            events.yield(.gaveUp(attempts: attempt - 1))
            return
        }
        let delay = policy.delay(beforeAttempt: attempt)
        events.yield(.reconnecting(attempt: attempt, delay: delay))
        loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            guard case .down = self.state.withLock({ $0.link }) else { return }
            let resuming = self.state.withLock { $0.session.isResumable }
            do {
                try self.open(on: loop, announce: !resuming)
            } catch {
                self.scheduleReconnect(on: loop)
                return
            }
            self.startHandshake(on: loop)
        }
    }

    /// Closes for good: fails what waits, ends every sequence and the event stream, stops the loop.
    func shutdown(on loop: EventLoop) {
        endSessionBeforeClosing()
        let taken = state.withLock { state in
            defer {
                state.link = .closed
                state.pending = [:]
                state.subscriptions = [:]
                state.monitors = [:]
                state.socket = nil
                state.registration = nil
            }
            return (state.socket, state.registration, Array(state.pending.values),
                    Array(state.subscriptions.values), Array(state.monitors.values))
        }
        if let registration = taken.1 { loop.deregister(registration) }
        try? taken.0?.close()
        for waiter in taken.2 {
            switch waiter {
            case .caller(let continuation, let opening):
                Self.finish(opening, throwing: VMClientError.closed)
                continuation.resume(throwing: VMClientError.closed)
            case .resubscribe(let sink, _):
                sink.finish()
            case .reconnectProbe, .sessionOpen, .sessionResume, .resumeSentinel:
                break
            }
        }
        for sink in taken.3 { sink.finish() }
        for sink in taken.4 { sink.finish() }
        events.finish()
        loop.stop()
    }
}

/// The reading half of one connection: the socket, its framer and a read buffer. Lives on
/// the loop thread only (captured by the loop's readiness handler).
final class SocketReader {
    let socket: FileDescriptor
    private var framer = LineFramer(maxFrameBytes: Int.max / 2)  // daemon frames are unbounded
    private var names = OutputNameCache()
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init(socket: FileDescriptor) { self.socket = socket }

    /// How many full chunks one readiness event reads before the loop does other work.
    static let chunksPerReadiness = 8

    /// Reads once (up to 64 KiB) into the framer (``decodeFrames(output:other:)`` takes the
    /// frames out); `ending` says why the connection is over, if it is; `mayHaveMore` when
    /// the read filled the buffer.
    func readChunk() -> (ending: String?, mayHaveMore: Bool) {
        do {
            switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
            case .bytes(let count):
                buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                return (nil, count == buffer.count)
            case .endOfFile:
                return ("vmd closed the connection", false)
            case .wouldBlock:
                return (nil, false)
            }
        } catch {
            return ("reading failed: \(error)", false)
        }
    }

    /// Hands every complete frame read so far to `output` (a `vm.output` in the daemon's own
    /// shape, read by OutputFrameReader.swift) or `other` (each message of any other frame),
    /// in order, without collecting them first; returns why the framing failed, if it did.
    func decodeFrames(output: (consuming VMOutputEvent, inout OutputRoute) -> Void, other: (ClientWire.Incoming) -> Void) -> String? {
        // The framer and the names are moved into locals for the loop and back after it:
        // used through the class's stored properties, with the handlers called in between,
        // each frame cost dynamic exclusivity checks.
        var framer = LineFramer(maxFrameBytes: 0)
        var names = OutputNameCache()
        swap(&framer, &self.framer)
        swap(&names, &self.names)
        defer {
            swap(&framer, &self.framer)
            swap(&names, &self.names)
        }
        do {
            while let frame = try framer.nextFrame() {
                let read = frame.withUnsafeBytes { OutputFrameReader.read($0, names: &names, to: output) }
                if !read {
                    for message in ClientWire.decode(frame) { other(message) }
                }
            }
            return nil
        } catch {
            return "unreadable framing: \(error)"
        }
    }
}
