import Posix

/// One connection's bytes waiting for its socket: a list of ``OutboundChunk``s taken from the
/// daemon's ``OutboundChunkPool``, linked through ``OutboundChunk/next``, written in place at
/// the end and sent from the front, each chunk given back as soon as it is sent. Nothing is
/// ever regrown or moved.
struct OutboundQueue {
    private let pool: OutboundChunkPool
    /// The first chunk not yet sent, `nil` when nothing is queued.
    private var front: OutboundChunk?
    /// The last chunk, written at its end; `nil` exactly when `front` is.
    private var back: OutboundChunk?
    /// Bytes queued and not yet sent.
    private(set) var count = 0
    // The last chunk's memory and fill, kept here so that appending touches no object (no
    // reference counting per message: measured, a retain and a release per delivered
    // `vm.output`). `tailEnd` is the truth for the last chunk's `end`; `syncTail()` writes it
    // back before anything reads the chunk. All zero/nil when there is no last chunk.
    private var tailBase: UnsafeMutableRawPointer?
    private var tailEnd = 0
    private var tailCapacity = 0

    init(pool: OutboundChunkPool) {
        self.pool = pool
    }

    /// Calls `write` with at least `maximumBytes` contiguous bytes at the end of the queue; it
    /// writes there and returns how many bytes it wrote.
    @inline(__always)
    mutating func append(maximumBytes: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) {
        if tailCapacity - tailEnd < maximumBytes || tailBase == nil { startChunk(room: maximumBytes) }
        guard let base = tailBase else { return }
        let written = write(UnsafeMutableRawBufferPointer(start: base + tailEnd, count: maximumBytes))
        tailEnd += written
        count += written
    }

    /// Appends `bytes`, split over chunks when they do not fit in the last one.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard var source = bytes.baseAddress else { return }
        var left = bytes.count
        count += left
        while left > 0 {
            if tailCapacity == tailEnd || tailBase == nil { startChunk(room: 1) }
            guard let base = tailBase else { return }
            let part = min(left, tailCapacity - tailEnd)
            (base + tailEnd).copyMemory(from: source, byteCount: part)
            tailEnd += part
            source += part
            left -= part
        }
    }

    /// Closes the last chunk and links a new one with room for `bytes` after it.
    private mutating func startChunk(room bytes: Int) {
        syncTail()
        let chunk = pool.take(atLeast: bytes)
        if let back {
            back.next = chunk
        } else {
            front = chunk
        }
        back = chunk
        tailBase = chunk.base
        tailEnd = chunk.end
        tailCapacity = chunk.capacity
    }

    /// Writes the last chunk's fill back to it.
    private func syncTail() {
        if tailBase != nil, let back { back.end = tailEnd }
    }

    /// Forgets the last chunk (it is sent, or dropped).
    private mutating func clearTail() {
        back = nil
        tailBase = nil
        tailEnd = 0
        tailCapacity = 0
    }

    /// Sends as much as the socket takes now: `true` when everything queued is sent, `false`
    /// when the socket is full.
    mutating func send(to descriptor: FileDescriptor) throws -> Bool {
        try send(to: descriptor, limit: .max)
    }

    /// ``send(to:)`` for the first `limit` bytes at most: `true` when they are sent (or
    /// nothing is queued), `false` when the socket is full.
    mutating func send(to descriptor: FileDescriptor, limit: Int) throws -> Bool {
        syncTail()
        var left = limit
        while left > 0, let chunk = front {
            let unsent = chunk.unsent
            let part = unsent.count > left ? UnsafeRawBufferPointer(rebasing: unsent[..<left]) : unsent
            switch try descriptor.send(part) {
            case .bytes(let sent):
                chunk.start += sent
                count -= sent
                left -= sent
                if chunk.start == chunk.end {
                    front = chunk.next
                    chunk.next = nil
                    if front == nil { clearTail() }
                    pool.give(chunk)
                }
            case .wouldBlock:
                return false
            }
        }
        return true
    }

    /// Forgets every unsent byte.
    mutating func removeAll() {
        var chunk = front
        front = nil
        clearTail()
        count = 0
        while let current = chunk {
            chunk = current.next
            current.next = nil
            pool.give(current)
        }
    }
}
