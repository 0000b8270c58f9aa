import Posix

/// Lets one log line of each kind through per ``interval``, counting the ones held back in
/// between: what keeps a burst of refused or misbehaving connections from writing a line
/// each (~900 lines in a few ms were seen). The kinds are the daemon's own fixed messages,
/// so what it remembers stays small.
struct LogThrottle {
    /// At most one line of a kind per 10 s.
    static let interval: UInt64 = 10_000_000_000

    private var lastWritten: [String: UInt64] = [:]
    private var heldBack: [String: Int] = [:]

    /// Whether a line of kind `kind` may be written at `now` (monotonic nanoseconds); if so,
    /// how many of its kind were held back since the last one written, else `nil`.
    mutating func admit(_ kind: String, now: UInt64 = MonotonicClock.nanoseconds()) -> Int? {
        if let last = lastWritten[kind], now &- last < Self.interval {
            heldBack[kind, default: 0] += 1
            return nil
        }
        lastWritten[kind] = now
        return heldBack.removeValue(forKey: kind) ?? 0
    }
}
