import Posix

/// One connection's bytes waiting for its socket: a list of ``OutboundChunk``s taken from the
/// daemon's ``OutboundChunkPool``, written in place at the end and sent from the front, each
/// chunk given back as soon as it is sent. Nothing is ever regrown or moved.
struct OutboundQueue {
    private let pool: OutboundChunkPool
    /// The chunks in order; those before `head` are sent and already given back.
    private var chunks: [OutboundChunk] = []
    private var head = 0
    /// The last chunk while it is unsent (`nil` otherwise), without a reference count:
    /// `chunks` holds it strongly for as long as this is set, and every place that drops it
    /// from `chunks` (`send`, `removeAll`) clears this first. Saves a retain and a release per
    /// appended message (measured: one of each per delivered `vm.output`).
    private unowned(unsafe) var last: OutboundChunk?
    /// Bytes queued and not yet sent.
    private(set) var count = 0

    init(pool: OutboundChunkPool) {
        self.pool = pool
    }

    /// The chunk to write at least `bytes` contiguous bytes into (a fresh one when the last
    /// has no room).
    @inline(__always)
    private mutating func tail(room bytes: Int) -> OutboundChunk {
        if let last, last.free >= bytes { return last }
        let chunk = pool.take(atLeast: bytes)
        chunks.append(chunk)
        last = chunk
        return chunk
    }

    /// Calls `write` with at least `maximumBytes` contiguous bytes at the end of the queue; it
    /// writes there and returns how many bytes it wrote.
    @inline(__always)
    mutating func append(maximumBytes: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
        let chunk = tail(room: maximumBytes)
        let written = write(UnsafeMutableRawBufferPointer(start: chunk.base + chunk.end, count: maximumBytes))
        chunk.end += written
        count += written
    }

    /// Appends `bytes`, split over chunks when they do not fit in the last one.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard var source = bytes.baseAddress else { return }
        var left = bytes.count
        count += left
        while left > 0 {
            let chunk = tail(room: 1)
            let part = min(left, chunk.free)
            (chunk.base + chunk.end).copyMemory(from: source, byteCount: part)
            chunk.end += part
            source += part
            left -= part
        }
    }

    /// Sends as much as the socket takes now: `true` when everything queued is sent, `false`
    /// when the socket is full.
    mutating func send(to descriptor: FileDescriptor) throws -> Bool {
        defer { dropSent() }
        while head < chunks.count {
            let chunk = chunks[head]
            switch try descriptor.send(chunk.unsent) {
            case .bytes(let sent):
                chunk.start += sent
                count -= sent
                if chunk.start == chunk.end {
                    if chunk === last { last = nil }
                    pool.give(chunk)
                    head += 1
                }
            case .wouldBlock:
                return false
            }
        }
        return true
    }

    /// Forgets every unsent byte.
    mutating func removeAll() {
        last = nil
        for chunk in chunks[head...] { pool.give(chunk) }
        chunks = []
        head = 0
        count = 0
    }

    /// Drops the references to chunks already given back.
    private mutating func dropSent() {
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.capacity <= 16)
            head = 0
        } else if head >= 16 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
