import JSONCore
import JSONRPC
import ReactiveCore
import VMProtocol

/// Every byte the server sends goes through here: one reused scratch buffer per message,
/// `sink.enqueue`, and a report to each monitor (`daemon.message`) when any is open.
///
/// Monitor notifications are enqueued straight on their sink and never reported themselves,
/// so monitors cannot feed each other (PROTOCOL.md §13).
///
/// Whether a connection is full, and what happens to a slow reader, is the transport's
/// (``ConnectionSink/isFull``); the server only stops writing outputs while it is full and
/// coalesces them (``Subscription``).
final class Outbox {
    /// The bound a batch's replies may queue before its remaining requests are refused
    /// (`Server+Frames.swift`); the transport enforces the limit itself.
    let maxOutboundBytes: Int
    let log: (ServerLogEvent) -> Void
    /// Open monitors, in opening order. (Unchecked exclusivity: read on every message; edited
    /// only by whole-statement appends and removals, and iterated through a copy.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var monitors: [Monitor] = []
    /// Set by the server: a copy of a message with its session tokens redacted, `nil` when it
    /// holds none; monitors see that copy (PROTOCOL.md §18).
    var redactor: ((UnsafeRawBufferPointer) -> [UInt8]?)?
    /// Made with its capacity in the initial value: with every access a plain swap (none
    /// spans a call), the optimizer checks its exclusivity statically.
    private var scratch: [UInt8] = Outbox.emptyScratch()
    private var monitorScratch: [UInt8] = []

    init(maxOutboundBytes: Int, log: @escaping (ServerLogEvent) -> Void) {
        self.maxOutboundBytes = maxOutboundBytes
        self.log = log
    }

    /// An empty buffer with room for a typical message.
    private static func emptyScratch() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(512)
        return buffer
    }

    /// Builds one message with `build` and enqueues it on `session`.
    @inline(__always)
    func send(to session: Session, _ build: (inout [UInt8]) -> Void) {
        // Take the buffer out while it is in use: if anything below ever re-entered the server,
        // the inner message would get a fresh buffer instead of an exclusivity violation.
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        build(&buffer)
        send(bytes: buffer, to: session)
        swap(&buffer, &scratch)
    }

    /// The hot path: one `vm.output` (a value, or a patch when `isPatch`) written by
    /// ``VMOutputNotification`` straight into the transport's buffer; built aside only when a
    /// monitor must see it too.
    @inline(__always)
    func sendOutput(to session: Session, prefix: [UInt8], seq: Int64, encoded: [UInt8], isPatch: Bool = false, replay: Bool = false) {
        sendOutput(to: session, via: session.sink, prefix: prefix, seq: seq, encoded: encoded, isPatch: isPatch, replay: replay)
    }

    /// ``sendOutput(to:prefix:seq:encoded:isPatch:replay:)`` on `sink`, `session.sink` as the
    /// caller already read it (each read of the existential costs a retain and a release).
    @inline(__always)
    func sendOutput(
        to session: Session, via sink: any ConnectionSink, prefix: [UInt8], seq: Int64, encoded: [UInt8], isPatch: Bool = false,
        replay: Bool = false
    ) {
        guard session.isOpen else { return }
        let maximum = VMOutputNotification.maximumByteCount(prefixBytes: prefix.count, valueBytes: encoded.count)
        @inline(__always) func write(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            isPatch
                ? VMOutputNotification.write(prefix: prefix, seq: seq, encodedPatch: encoded, into: buffer)
                : VMOutputNotification.write(prefix: prefix, seq: seq, encodedValue: encoded, replay: replay, into: buffer)
        }
        enqueue(maximumBytes: maximum, for: session, via: sink, write)
    }

    /// ``sendOutput(to:via:prefix:seq:encoded:isPatch:replay:)`` for a value that is an integer,
    /// its digits written by ``VMOutputNotification`` straight into the transport's buffer
    /// (no encoded copy of the value first); the bytes are the same.
    @inline(__always)
    func sendOutput(to session: Session, via sink: any ConnectionSink, prefix: [UInt8], seq: Int64, integer: Int64) {
        guard session.isOpen else { return }
        let maximum = VMOutputNotification.maximumIntegerByteCount(prefixBytes: prefix.count)
        @inline(__always) func write(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            VMOutputNotification.write(prefix: prefix, seq: seq, integerValue: integer, replay: false, into: buffer)
        }
        enqueue(maximumBytes: maximum, for: session, via: sink, write)
    }

    /// Enqueues the message `write` writes (at most `maximum` bytes) on `sink`: straight into
    /// the transport's buffer, or, while monitors watch, through a scratch buffer they are shown.
    @inline(__always)
    private func enqueue(
        maximumBytes maximum: Int, for session: Session, via sink: any ConnectionSink,
        _ write: (UnsafeMutableRawBufferPointer) -> Int
    ) {
        guard !monitors.isEmpty else {
            sink.enqueue(maximumBytes: maximum, write)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: maximum, alignment: 1) { raw in
            let message = UnsafeRawBufferPointer(rebasing: raw[0..<write(raw)])
            sink.enqueue(message: message)
            report(.out, connection: session.number, message: message)
        }
    }

    /// A success reply to an integer `id` whose result is the constant `encodedResult`, written
    /// by ``JSONRPCEncoder/writeSuccess(id:encodedResult:into:)`` straight into the transport's
    /// buffer (a plain `vm.send`'s reply, Server+SendFastPath.swift); built aside only when a
    /// monitor must see it too.
    @inline(__always)
    func sendSuccess(to session: Session, id: Int64, encodedResult: StaticString) {
        guard session.isOpen else { return }
        let maximum = JSONRPCEncoder.maximumSuccessByteCount(encodedResult: encodedResult)
        guard monitors.isEmpty else {
            withUnsafeTemporaryAllocation(byteCount: maximum, alignment: 1) { raw in
                let message = UnsafeRawBufferPointer(rebasing: raw[0..<JSONRPCEncoder.writeSuccess(id: id, encodedResult: encodedResult, into: raw)])
                session.sink.enqueue(message: message)
                report(.out, connection: session.number, message: message)
            }
            return
        }
        session.sink.enqueue(maximumBytes: maximum) { JSONRPCEncoder.writeSuccess(id: id, encodedResult: encodedResult, into: $0) }
    }

    /// ``sendSuccess(to:id:encodedResult:)`` for a result of `resultByteCount` bytes that
    /// `writeResult` writes at the cursor it is given, returning the position after it
    /// (``JSONRPCEncoder/writeSuccess(id:resultByteCount:into:_:)``): a `vm.create` reply
    /// (`VMCreateMethod.Result.writePlainText(to:)`).
    @inline(__always)
    func sendSuccess(
        to session: Session, id: Int64, resultByteCount: Int, _ writeResult: (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    ) {
        guard session.isOpen else { return }
        let maximum = JSONRPCEncoder.maximumSuccessByteCount(resultByteCount: resultByteCount)
        @inline(__always) func write(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            JSONRPCEncoder.writeSuccess(id: id, resultByteCount: resultByteCount, into: buffer, writeResult)
        }
        enqueue(maximumBytes: maximum, for: session, via: session.sink, write)
    }

    /// Enqueues already-built message bytes on `session`.
    func send(bytes: [UInt8], to session: Session) {
        guard session.isOpen else { return }
        bytes.withUnsafeBytes { message in
            session.sink.enqueue(message: message)
            if !monitors.isEmpty { report(.out, connection: session.number, message: message) }
        }
    }

    /// Whether the transport counts `session`'s buffer as full.
    @inline(__always)
    func isFull(_ session: Session) -> Bool {
        session.sink.isFull
    }

    /// Reports one message to every monitor: consumes the monitor's next seq, and writes the
    /// notification unless that monitor's own connection is full (then the gap in its seq
    /// shows the loss).
    func report(_ direction: DaemonMessageNotification.Direction, connection: UInt64, message: UnsafeRawBufferPointer) {
        if let redacted = redactor?(message) {
            // The copy holds no token any more, so this reports it without redacting again.
            redacted.withUnsafeBytes { report(direction, connection: connection, message: $0) }
            return
        }
        for monitor in monitors {
            let session = monitor.session
            guard session.isOpen else { continue }
            monitor.seq += 1
            if isFull(session) { continue }
            monitorScratch.removeAll(keepingCapacity: true)
            DaemonMessageNotification.append(
                prefix: monitor.prefix, seq: monitor.seq, direction: direction, connection: connection,
                message: message, to: &monitorScratch)
            monitorScratch.withUnsafeBytes { session.sink.enqueue(message: $0) }
        }
    }

    /// Reports a received frame (already parsed: re-encoded compactly, so LSP bodies with
    /// newlines still splice into one NDJSON line).
    func reportReceived(_ value: JSONValue, on session: Session) {
        let bytes = value.encodedBytes()
        bytes.withUnsafeBytes { report(.in, connection: session.number, message: $0) }
    }
}
