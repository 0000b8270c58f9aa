import Posix

/// One fixed-size block of a connection's outbound bytes (see ``OutboundQueue``): written from
/// `end`, sent from `start`, and handed back to the ``OutboundChunkPool`` once sent.
///
/// Its memory is allocated once and reused from connection to connection, so a burst of
/// output neither regrows nor copies a per-connection buffer (and does not fault fresh pages
/// in on every burst). The memory comes from the kernel's pages, not the heap
/// (``Posix/PageMemory``): a chunk freed after a burst leaves the process at once instead of
/// keeping the burst's peak resident until the next heap trim.
final class OutboundChunk {
    /// The block's memory: `capacity` bytes, owned by this chunk (released in `deinit`).
    let base: UnsafeMutableRawPointer
    let capacity: Int
    /// Whether `base` is pages of its own (else heap memory, when the kernel had no pages).
    private let isPages: Bool
    /// The first byte not yet sent.
    var start = 0
    /// The end of the bytes written so far.
    var end = 0
    /// The chunk after this one in the list that holds it: a connection's queue
    /// (``OutboundQueue``) or the spare chunks (``OutboundChunkPool``). Links instead of arrays:
    /// taking, queueing, sending and giving back a chunk is then a few stores, not the arrays'
    /// appends, pops and uniqueness checks.
    /// (Unchecked exclusivity: only the queue and the pool touch it, on the loop thread, each
    /// access a single load or store that calls out to nothing.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var next: OutboundChunk?

    init(capacity: Int) {
        self.capacity = capacity
        if let pages = PageMemory.allocate(byteCount: capacity) {
            base = pages
            isPages = true
        } else {
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            isPages = false
        }
    }

    deinit {
        if isPages { PageMemory.release(base, byteCount: capacity) } else { base.deallocate() }
    }

    /// The bytes written but not sent.
    @inline(__always) var unsent: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// Empty again, for its next use.
    @inline(__always) func reset() {
        start = 0
        end = 0
    }
}
