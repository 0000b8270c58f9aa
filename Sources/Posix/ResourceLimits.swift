import CPosix

/// Process resource limits.
public enum ResourceLimits {
    /// Raises the soft `RLIMIT_NOFILE` to the hard limit (1,000+ connections each need a
    /// descriptor) and returns the limits now in force.
    @discardableResult
    public static func raiseOpenFileLimit() throws -> (soft: UInt64, hard: UInt64) {
        var soft: UInt64 = 0
        var hard: UInt64 = 0
        try retryingOnInterrupt("getrlimit(RLIMIT_NOFILE)") { cposix_raise_nofile_limit(&soft, &hard) }
        return (soft, hard)
    }
}
