import JSONRPC
import Posix
import VMServer

/// Reading, framing, writing and closing connections (see ``Connection``).
extension Daemon {
    /// Reads per readiness event before yielding to other connections (64 KiB each).
    private static let maxReadsPerEvent = 4

    // MARK: Events

    func handleEvents(_ events: IOEvents, on connection: Connection) {
        guard connection.state != .closed else { return }
        if events.contains(.writable) {
            connection.isWriteBlocked = false
            flush(connection)
            guard connection.state != .closed else { return }
        }
        let isReading = connection.interest.contains(.readable)
        if isReading, !events.isDisjoint(with: [.readable, .hangup, .error]) {
            readAvailable(connection)
        } else if !events.isDisjoint(with: [.hangup, .error]) {
            // Not watching for input, so this is not a half-close (EPOLLRDHUP is only asked
            // for with input): the peer closed both directions, or the socket failed.
            terminate(connection, reason: events.contains(.error) ? "socket error" : "peer closed the connection")
        }
    }

    private func readAvailable(_ connection: Connection) {
        var reachedEnd = false
        reading: for _ in 0..<Self.maxReadsPerEvent {
            let result: ReadResult
            do {
                result = try connection.descriptor.read(into: readBuffer)
            } catch {
                terminate(connection, reason: "read failed: \(error)")
                return
            }
            switch result {
            case .bytes(let count):
                connection.framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
                // A short read emptied the socket: skip the read that would say EAGAIN.
                if count < readBuffer.count { break reading }
            case .wouldBlock:
                break reading
            case .endOfFile:
                reachedEnd = true
                break reading
            }
        }
        connection.adoptDetectedFormat()
        if reachedEnd, connection.framer.format == .lines, connection.framer.bufferedByteCount > 0 {
            // A last line without its newline is still a message (`printf '{...}' | socat ...`).
            connection.framer.append(contentsOf: [UInt8(ascii: "\n")])
        }
        deliverFrames(connection)
        if reachedEnd, case .open(let paused) = connection.state {
            // The peer shut down its writing side; it may still be reading our replies (socat
            // does exactly this), so the connection stays until they are written and nothing
            // else is pending; the flush decides (see `closeIfFinished`).
            connection.state = .peerFinishedWriting(paused: paused)
            log.debug("peer finished writing", ["connection": .string(connection.id.description)])
            updateInterest(connection)
            if case .peerFinishedWriting = connection.state, !connection.isQueuedForFlush { queueFlush(connection) }
        }
    }

    /// Hands every complete frame to the handler, unless the connection is paused (its output
    /// is over the limit) or closing; paused frames stay in the framer until it drains.
    func deliverFrames(_ connection: Connection) {
        // The connection's own copy of the handler: borrowed, not retained (see
        // `Connection.handler`).
        while connection.state.takesFrames {
            let frame: ArraySlice<UInt8>?
            do {
                frame = try connection.framer.nextFrame()
            } catch {
                framingFailed(connection, error)
                return
            }
            guard let frame else {
                // Frames held back while paused are all handled now: a half-closed connection
                // may be finished (they may have written nothing, e.g. notifications).
                if case .peerFinishedWriting = connection.state, !connection.isQueuedForFlush { queueFlush(connection) }
                return
            }
            heapTrimmer?.frameReceived(size: frame.count)
            frame.withUnsafeBytes { connection.handler.frameReceived($0, on: connection.id) }
        }
    }

    private func framingFailed(_ connection: Connection, _ error: FramingError) {
        let reply: JSONRPCError
        let reason: String
        switch error.kind {
        case .frameTooLarge(let limit):
            reply = TransportErrors.frameTooLarge(maxFrameBytes: limit)
            reason = "frame larger than maxFrameBytes (\(limit))"
            logThrottled(.warning, "limit reached: frame too large; closing the connection", [
                "connection": .string(connection.id.description), "limit": "maxFrameBytes", "value": LogValue(limit),
            ])
        case .headerTooLarge, .malformedHeader, .missingContentLength:
            reply = TransportErrors.malformedHeader(error)
            reason = "malformed LSP header"
            logThrottled(.warning, "malformed LSP header; closing the connection", [
                "connection": .string(connection.id.description), "error": .string(error.message),
            ])
        }
        TransportErrors.encodedResponse(reply).withUnsafeBytes { connection.enqueue(message: $0) }
        close(connection, reason: reason)
    }

    // MARK: Writing

    func queueFlush(_ connection: Connection) {
        connection.isQueuedForFlush = true
        flushQueue.append(connection)
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        // Deferred work runs after every event of this loop iteration: all replies produced by
        // this iteration's reads leave in one send per connection.
        loop.enqueue(connection.flushWork)
    }

    func flushQueued() {
        isFlushScheduled = false
        swap(&flushQueue, &spareFlushQueue)
        // By index, in queueing order: no iterator holding a copy of the list.
        var index = 0
        while index < spareFlushQueue.count {
            let connection = spareFlushQueue[index]
            connection.isQueuedForFlush = false
            flush(connection)
            index += 1
        }
        // Emptied element by element: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, several times the cost for the one or few connections listed.
        while spareFlushQueue.popLast() != nil {}
    }

    /// Writes what the socket takes, then settles the connection's state: resume reading after
    /// a drain, finish a close, or watch for writability. A slow reader's queue and what
    /// follows are decided here and in ``outboundLimitReached(_:)`` only (the server learns it
    /// through ``Connection/isFull`` and `connectionDrained`).
    func flush(_ connection: Connection) {
        guard connection.state != .closed else { return }
        // What this turn saved reaches the disk before the replies that acknowledge it
        // (Daemon+GroupCommit.swift): while the store holds writes back, only what a completed
        // sync covers is written.
        var limit = Int.max
        if let durability, durability.isHolding {
            startDurableSync(durability)
            limit = durablyWritableBytes(connection)
        }
        if connection.state == .aborting {
            terminate(connection, reason: "slow reader disconnected (--slow-client disconnect)")
            return
        }
        if !connection.isWriteBlocked, connection.pendingBytes > 0 {
            let before = connection.pendingBytes
            let outcome: Connection.FlushOutcome = limit == .max ? connection.writePending() : limit > 0 ? connection.writePending(limit: limit) : .empty
            if limit != .max { recordDurableWrite(connection, bytes: before - connection.pendingBytes) }
            switch outcome {
            case .empty: break
            case .blocked: connection.isWriteBlocked = true
            case .failed(let error):
                connection.discardOutbound()
                terminate(connection, reason: "write failed: \(error.reason)")
                return
            }
        }
        var hasHeldFrames = false
        if connection.state.isPaused, connection.pendingBytes < configuration.limits.maxOutboundBytes / 2 {
            // Half the bound: the low-water mark.
            connection.state = connection.state.paused(false)
            log.info("slow reader caught up; reading resumes", ["connection": .string(connection.id.description)])
            updateInterest(connection)
            handler.connectionDrained(connection.id)
            // Frames that arrived while paused are still in the framer.
            loop.enqueue { [weak self] in self?.deliverFrames(connection) }
            hasHeldFrames = true
            guard connection.state != .closed else { return }
        }
        if connection.state == .closing, connection.pendingBytes == 0 {
            terminate(connection, reason: connection.closeReason)
            return
        }
        if case .peerFinishedWriting = connection.state, !hasHeldFrames, closeIfFinished(connection) { return }
        updateInterest(connection)
    }

    /// Closes a half-closed connection that has nothing left to do: every byte written, no
    /// frame held back, and the handler has nothing pending for it (no call awaiting its
    /// answer, no subscription or monitor). PROTOCOL.md §3, "End of input". Returns whether
    /// it closed.
    private func closeIfFinished(_ connection: Connection) -> Bool {
        guard connection.pendingBytes == 0, connection.state == .peerFinishedWriting(paused: false),
              !handler.hasPendingWork(on: connection.id)
        else { return false }
        terminate(connection, reason: "peer finished writing and nothing is pending")
        return true
    }

    /// The handler queued `maxOutboundBytes` or more for `connection`.
    func outboundLimitReached(_ connection: Connection) {
        let fields: KeyValuePairs<String, LogValue> = [
            "connection": .string(connection.id.description),
            "limit": "maxOutboundBytes", "value": LogValue(configuration.limits.maxOutboundBytes),
        ]
        switch configuration.slowClient {
        case .disconnect:
            logThrottled(.warning, "limit reached: slow reader; disconnecting it (--slow-client disconnect)", fields)
            connection.state = .aborting
            connection.discardOutbound()
            if !connection.isQueuedForFlush { queueFlush(connection) }
        case .coalesce:
            connection.state = connection.state.paused(true)
            logThrottled(.notice, "limit reached: slow reader; reading paused, outputs coalesce until it drains", fields)
        }
    }

    /// Watches exactly what the connection's state calls for.
    func updateInterest(_ connection: Connection) {
        guard connection.state != .closed, let registration = connection.registration else { return }
        var desired: IOInterest = []
        if connection.state == .open(paused: false) { desired.insert(.readable) }
        if connection.isWriteBlocked, connection.pendingBytes > 0 { desired.insert(.writable) }
        guard desired != connection.interest else { return }
        do {
            try loop.modify(registration, interest: desired)
            connection.interest = desired
        } catch {
            terminate(connection, reason: "cannot watch the socket: \(error)")
        }
    }

    // MARK: Closing

    /// Closes once what is queued is written (or after `closeLinger`); reads nothing more.
    func close(_ connection: Connection, reason: String) {
        switch connection.state {
        case .open, .peerFinishedWriting: break
        case .closing, .aborting, .closed: return
        }
        connection.state = .closing
        connection.closeReason = reason
        connection.lingerTimer = loop.schedule(after: configuration.closeLinger) { [weak self] in
            let dropped = connection.bytesDroppedWhileClosing
            self?.terminate(connection, reason: reason + "; gave up writing \(connection.pendingBytes) bytes"
                + (dropped > 0 ? " (\(dropped) more dropped over maxOutboundBytes)" : ""))
        }
        if !connection.isQueuedForFlush { queueFlush(connection) }
    }

    /// Closes the socket now, forgets the connection and tells the handler.
    func terminate(_ connection: Connection, reason: String) {
        guard connection.state != .closed else { return }
        connection.state = .closed
        if let timer = connection.lingerTimer { loop.cancel(timer) }
        connection.lingerTimer = nil
        if let registration = connection.registration { loop.deregister(registration) }
        connection.registration = nil
        try? connection.descriptor.close()
        connection.discardOutbound()
        connections[connection.id.rawValue] = nil
        log.info("connection closed", [
            "connection": .string(connection.id.description), "pid": LogValue(connection.peer.pid),
            "uid": LogValue(connection.peer.uid), "reason": .string(reason),
        ])
        handler.connectionClosed(connection.id)
        heapTrimmer?.connectionClosed()
        connectionsChanged()
    }
}
