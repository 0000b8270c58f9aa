/// A point in a scheduler's time: nanoseconds since an arbitrary origin of that scheduler.
///
/// Real schedulers count from a process-wide monotonic origin (``monotonicNow()``); virtual
/// schedulers count virtual time. Delays are Swift `Duration`s.
public struct SchedulerTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the scheduler's origin.
    public var nanoseconds: Int64

    /// The time `nanoseconds` after the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The origin itself.
    public static let zero = SchedulerTime(nanoseconds: 0)

    /// Now, on the monotonic clock, relative to the first call in this process.
    public static func monotonicNow() -> SchedulerTime {
        SchedulerTime(nanoseconds: (ContinuousClock.now - monotonicOrigin).totalNanoseconds)
    }

    public static func < (lhs: SchedulerTime, rhs: SchedulerTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The time `delay` later (saturating).
    public static func + (time: SchedulerTime, delay: Duration) -> SchedulerTime {
        let (sum, overflow) = time.nanoseconds.addingReportingOverflow(delay.totalNanoseconds)
        return SchedulerTime(nanoseconds: overflow ? (delay < .zero ? .min : .max) : sum)
    }

    /// The duration from `earlier` to `later`.
    public static func - (later: SchedulerTime, earlier: SchedulerTime) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }

    public var description: String { "\(nanoseconds)ns" }
}

/// The process-wide origin of ``SchedulerTime/monotonicNow()``; a lazily initialized global
/// `let` of a `Sendable` type, so reading it from any thread is safe.
private let monotonicOrigin = ContinuousClock.now

extension Duration {
    /// This duration in whole nanoseconds, saturating at `Int64`'s bounds.
    public var totalNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowSum { return seconds < 0 ? .min : .max }
        return sum
    }
}
