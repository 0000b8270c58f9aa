/// One fixed-size block of a connection's outbound bytes (see ``OutboundQueue``): written from
/// `end`, sent from `start`, and handed back to the ``OutboundChunkPool`` once sent.
///
/// Its memory is allocated once and reused from connection to connection, so a burst of
/// output neither regrows nor copies a per-connection buffer (and does not fault fresh pages
/// in on every burst).
final class OutboundChunk {
    /// The block's memory: `capacity` bytes, owned by this chunk (freed in `deinit`).
    let base: UnsafeMutableRawPointer
    let capacity: Int
    /// The first byte not yet sent.
    var start = 0
    /// The end of the bytes written so far.
    var end = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

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
