/// How much inbound buffer a framer keeps once it has nothing (or little) left to frame.
///
/// A connection that once sent a 1 MB frame and then went quiet kept a 1 MB buffer for the
/// rest of its life (up to ~4 GiB over 4,096 idle connections at the defaults). The
/// framers give such a buffer back as soon as they run out of complete frames: the buffer is
/// reallocated to hold just the unconsumed bytes whenever its capacity exceeds
/// ``keptCapacity`` and those bytes fill at most a quarter of it. So an idle connection
/// retains at most `max(keptCapacity, 4 × its partial frame)`.
enum FramerSlack {
    /// Capacity kept for the next burst: about one socket read's worth (the daemon reads 64 KiB
    /// at a time).
    static let keptCapacity = 65_536

    /// `buffer` without the consumed bytes before `start`, in a buffer just large enough,
    /// when keeping the current one would waste memory; `nil` to keep it.
    static func trimmed(_ buffer: [UInt8], start: Int) -> [UInt8]? {
        guard buffer.capacity > keptCapacity else { return nil }
        let remaining = buffer.count - start
        guard remaining * 4 <= buffer.capacity else { return nil }
        return remaining == 0 ? [] : Array(buffer[start...])
    }
}
