#if canImport(Glibc)
import Glibc
#endif

/// The CPU time (user + system, every thread) a daemon and this process, its client, spend
/// over one measured interval, read from /proc/PID/stat at its start and at ``perOperation(_:)``.
/// Clock ticks are coarse (10 ms): measure intervals of a few hundred ms at least.
struct CPUSplit {
    let daemon: Int32
    private let daemonStart: Int
    private let ownStart: Int

    /// Starts the interval now.
    init(daemon: Int32) throws {
        self.daemon = daemon
        daemonStart = try Self.ticks(of: daemon)
        ownStart = try Self.ticks(of: getpid())
    }

    /// CPU nanoseconds per operation of the daemon and of this process since ``init(daemon:)``.
    func perOperation(_ operations: Int) throws -> (daemon: Double, client: Double) {
        let daemonTicks = try Self.ticks(of: daemon) - daemonStart
        let ownTicks = try Self.ticks(of: getpid()) - ownStart
        let scale = BenchDaemon.nanosecondsPerTick / Double(max(1, operations))
        return (Double(daemonTicks) * scale, Double(ownTicks) * scale)
    }

    private static func ticks(of pid: Int32) throws -> Int {
        let usage = try BenchDaemon.usage(of: pid)
        return usage.user + usage.system
    }
}
