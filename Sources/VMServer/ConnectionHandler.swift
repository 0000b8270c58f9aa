/// The seam between the transport-agnostic server and whatever carries its bytes.
///
/// `VMTransport` drives a ``ConnectionHandler`` from its event loop: it reads and deframes bytes,
/// hands every complete frame to ``ConnectionHandler/frameReceived(_:on:)``, and frames and writes
/// whatever the handler enqueues on the connection's ``ConnectionSink``. Tests drive the same
/// handler in-process with an in-memory sink, so dispatch is tested without a socket.
///
/// Threading: every call in both directions happens on the one thread that owns the server
/// (the daemon's loop thread); neither side is Sendable.
package protocol ConnectionHandler: AnyObject {
    /// A peer connected. `sink` stays valid until ``connectionClosed(_:)``.
    func connectionOpened(_ id: ConnectionID, peer: PeerIdentity, sink: any ConnectionSink)

    /// One complete frame (a JSON-RPC message or batch, unframed), valid only during the call.
    func frameReceived(_ frame: UnsafeRawBufferPointer, on id: ConnectionID)

    /// The connection's pending outbound bytes fell back under the low-water mark after having
    /// exceeded the limit: the handler may report overflow and deliver coalesced values now.
    func connectionDrained(_ id: ConnectionID)

    /// The peer went away or the transport closed the connection; release everything it owned.
    func connectionClosed(_ id: ConnectionID)

    /// The daemon is stopping: tell subscribers (e.g. `vm.closed` with reason `shutdown`) by
    /// enqueuing on their sinks; the transport flushes what it can before closing.
    func shutdown()

    /// Whether the handler still has something to do for `id`: a call not yet answered, or a
    /// stream (subscription, monitor) that may still write to it.
    ///
    /// The transport asks this of a connection whose peer has shut down its writing side once
    /// everything queued is written: with nothing pending it closes the connection at once
    /// (PROTOCOL.md §3, "End of input"), otherwise it asks again after the next write or
    /// ``ConnectionSink/workEnded()``. Read-only; loop thread only. The default, `true`, keeps
    /// such a connection open until the peer hangs up.
    func hasPendingWork(on id: ConnectionID) -> Bool
}

extension ConnectionHandler {
    package func hasPendingWork(on id: ConnectionID) -> Bool { true }
}

/// Where a handler writes messages for one connection.
package protocol ConnectionSink: AnyObject {
    /// Appends one complete JSON-RPC message (unframed UTF-8 JSON); the transport adds framing
    /// (a newline, or a `Content-Length` header) and writes it in order with everything else.
    func enqueue(message: UnsafeRawBufferPointer)

    /// Appends one message built in place: `write` gets at least `maximumBytes` bytes of the
    /// transport's own buffer, writes the message (unframed) there and returns how many bytes
    /// it wrote. Saves a copy for messages built from parts (`vm.output`). The default builds
    /// it in temporary memory and calls ``enqueue(message:)``.
    func enqueue(maximumBytes: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int)

    /// Bytes accepted by ``enqueue(message:)`` but not yet written to the peer.
    var pendingBytes: Int { get }

    /// Whether the transport counts the outbound buffer as full (the peer reads too slowly).
    ///
    /// The transport alone decides this and what follows for the connection (pausing its
    /// reading, or disconnecting it under `--slow-client disconnect`); while it is `true` the
    /// server writes no `vm.output` or `daemon.message` to it (coalescing, PROTOCOL.md §7),
    /// until ``ConnectionHandler/connectionDrained(_:)``. The default, `false`, suits a sink
    /// that never pushes back.
    var isFull: Bool { get }

    /// Closes the connection once what is already enqueued has been written (or could not be).
    func close()

    /// The handler finished something it was doing for this connection, possibly without
    /// writing anything (a `vm.execute` sent as a notification that succeeded): the transport
    /// may ask ``ConnectionHandler/hasPendingWork(on:)`` again. The default does nothing.
    func workEnded()
}

extension ConnectionSink {
    package func workEnded() {}

    package var isFull: Bool { false }

    package func enqueue(maximumBytes: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
        withUnsafeTemporaryAllocation(byteCount: maximumBytes, alignment: 1) { raw in
            let count = write(raw)
            enqueue(message: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }
}

/// Identifies one connection for the lifetime of the daemon process (never reused).
package struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt64
    package init(_ rawValue: UInt64) { self.rawValue = rawValue }
    package var description: String { "c\(rawValue)" }
}

/// Who is on the other end, as the kernel reports it (`SO_PEERCRED`).
package struct PeerIdentity: Hashable, Sendable {
    package let pid: Int32
    package let uid: UInt32
    package let gid: UInt32
    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
