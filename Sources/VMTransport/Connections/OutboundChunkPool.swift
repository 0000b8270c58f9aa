/// The daemon's spare ``OutboundChunk``s, shared by all its connections (loop thread only).
///
/// A connection takes chunks as it queues output and gives each back once written, so the
/// same blocks of memory carry every burst without faulting in fresh pages. At most
/// ``maximumSpare`` chunks are kept spare (32 MiB: what 50 subscribers kept busy hold in
/// flight); any beyond leave the process as they are freed, and the heap trimmer releases the
/// spare ones once the daemon goes idle (`HeapTrimmer`), so an idle daemon keeps none.
final class OutboundChunkPool {
    /// The size of a pooled chunk. A larger message gets a chunk of its own size, not pooled.
    static let chunkBytes = 32_768
    /// Spare chunks kept at most.
    static let maximumSpare = 1024

    // Unchecked exclusivity: a chunk is taken and given back once per flushed message batch,
    // and the runtime's dynamic access check on each was measurable per round trip. It is safe
    // because the pool belongs to one daemon and is used only on its loop thread, the list is
    // private, and every access is a single load or store that calls out to nothing while it
    // is in progress.
    /// The spare chunks, linked through ``OutboundChunk/next`` (the latest given first).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var firstSpare: OutboundChunk?
    /// Spare chunks held now.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var spareCount = 0

    init() {}

    /// Frees every spare chunk (the daemon went idle).
    func releaseSpare() {
        var chunk = firstSpare
        firstSpare = nil
        spareCount = 0
        // Unlinked one by one: releasing the head alone would free the list recursively.
        while let current = chunk {
            chunk = current.next
            current.next = nil
        }
    }

    /// A chunk with room for at least `bytes` bytes, empty and unlinked.
    @inline(__always)
    func take(atLeast bytes: Int) -> OutboundChunk {
        guard bytes <= Self.chunkBytes else { return OutboundChunk(capacity: bytes) }
        guard let chunk = firstSpare else { return OutboundChunk(capacity: Self.chunkBytes) }
        firstSpare = chunk.next
        chunk.next = nil
        spareCount -= 1
        return chunk
    }

    /// Takes back an unlinked chunk whose bytes are all sent (or dropped).
    @inline(__always)
    func give(_ chunk: OutboundChunk) {
        guard chunk.capacity == Self.chunkBytes, spareCount < Self.maximumSpare else { return }
        chunk.reset()
        chunk.next = firstSpare
        firstSpare = chunk
        spareCount += 1
    }
}
