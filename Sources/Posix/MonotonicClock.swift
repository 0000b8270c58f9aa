import CPosix

/// `CLOCK_MONOTONIC` and `CLOCK_REALTIME` readings as integers (no Foundation, no allocation).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; never goes backwards. For deadlines and uptime.
    @inline(__always)
    public static func nanoseconds() -> UInt64 { cposix_monotonic_ns() }
}

/// The wall clock, for log timestamps and process start times (it may jump; never for timeouts).
public enum WallClock {
    /// Nanoseconds since the Unix epoch (UTC).
    public static func nanosecondsSinceEpoch() -> Int64 { cposix_realtime_ns() }
}
