// Hand-off between event loops (Performance.md, the sharding model): what a daemon
// sharded across several loop threads would pay each time work crosses from one loop to
// another, measured with Posix's EventLoopThread and EventLoopHandle.execute (a Mutex-guarded
// job queue and an eventfd wake-up), the way such a daemon would hand work over.
//
// H1  hop latency: two loop threads pass one job back and forth 20,000 times; ns per hop, for
//     each placement of the two threads (CPUPlacement.swift: one core, two cores), against the
//     raw line echo round trip of DaemonBenchmarks.swift in the same placement (two hops: to
//     the server and back).
// H2  batched hand-off: this thread queues 1,000,000 small jobs onto one loop thread as fast as
//     it can (the loop drains them in batches, one wake-up per batch); wall and CPU (this
//     process, all threads) ns per job, against the same job called directly on this thread.

#if canImport(Glibc)
import Glibc
#endif
import Posix
import Synchronization

func runShardingBenchmarks() {
    do {
        try ShardingBench().run()
    } catch {
        print("sharding: failed: \(error)")
    }
}

/// The counters the loop threads' jobs touch.
private final class HandOffTally: Sendable {
    let remaining = Atomic<Int>(0)
    let finishedAt = Atomic<UInt64>(0)
    let count = Atomic<Int>(0)
}

private final class ShardingBench {
    func run() throws {
        let own = getpid()
        let before = Affinity.threadIDs(of: own)
        let first = try EventLoopThread.start(setup: { _ in })
        let second = try EventLoopThread.start(setup: { _ in })
        defer {
            first.stopAndJoin()
            second.stopAndJoin()
        }
        let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdsh-XXXXXX")
        defer { try? FileSystem.removeDirectory(directory) }
        let loopThreads = Affinity.threadIDs(of: own).subtracting(before).sorted()
        let echoPath = directory + "/echo.sock"
        let beforeEcho = Affinity.threadIDs(of: own)
        let echo = try LineEchoServer.start(path: echoPath)
        defer { echo.stop() }
        let echoThreads = Affinity.threadIDs(of: own).subtracting(beforeEcho)
        // A cpuset without CPUs 0 and 1 (or a refused taskset) leaves only the scheduler's choice.
        let pinnable = loopThreads.count == 2 && echoThreads.count == 1 && Affinity.tasksetPath != nil
            && (try? Affinity.pin(own, to: "0")) != nil
        let placements = pinnable ? CPUPlacement.available : [.unpinned]
        let echoClient = try LineClient(path: echoPath)
        defer { echoClient.close() }

        let tally = HandOffTally()
        _ = try hops(1000, between: first.handle, and: second.handle, tally)
        _ = try echoRoundTrips(echoClient, count: 1000)
        for placement in placements {
            if pinnable {
                let cpus = placement.cpus
                try Affinity.pin(own, to: cpus.client)
                try Affinity.pin(loopThreads[0], to: cpus.client)
                try Affinity.pin(loopThreads[1], to: cpus.server)
                try Affinity.pin(echoThreads.first ?? own, to: cpus.server)
            }
            var hopTimes: [Double] = []
            var echoSamples: [UInt64] = []
            for _ in 0..<5 {
                hopTimes.append(try hops(20_000, between: first.handle, and: second.handle, tally))
                echoSamples += try echoRoundTrips(echoClient, count: 2000)
            }
            let hop = middleValue(hopTimes), echoTrip = Percentiles(echoSamples).p50
            print("H1 loop-to-loop hop, \(placement.rawValue): \(Int(hop.rounded())) ns per hop (median of 5 × 20,000);"
                  + " echo round trip p50 \(microsText(echoTrip)) µs = \(Int((Double(echoTrip) / 2).rounded())) ns per direction;"
                  + " hop / echo direction \(twoDecimals(hop / (Double(echoTrip) / 2)))x")
        }
        for placement in placements {
            if pinnable {
                let cpus = placement.cpus
                try Affinity.pin(own, to: cpus.client)
                try Affinity.pin(loopThreads[1], to: cpus.server)
            }
            var figures: [(wall: Double, cpu: Double)] = []
            for _ in 0..<3 { figures.append(try batchedHandOff(1_000_000, to: second.handle, tally)) }
            let wall = middleValue(figures.map(\.wall)), cpu = middleValue(figures.map(\.cpu))
            let direct = directCalls(1_000_000, tally)
            print("H2 batched hand-off to one loop thread, \(placement.rawValue): \(fixed(wall)) ns per job (wall),"
                  + " \(fixed(cpu)) ns CPU per job; the same job called directly: \(fixed(direct)) ns;"
                  + " hand-off / direct \(twoDecimals(cpu / max(direct, 0.01)))x")
        }
        if pinnable { try Affinity.pin(own, to: Affinity.allCPUs) }
        if !pinnable { print("note: sharding ran unpinned only (needs taskset and the loop threads' ids)") }
    }

    /// `count` hops alternating between the two loops; ns per hop.
    private func hops(_ count: Int, between first: EventLoopHandle, and second: EventLoopHandle,
                      _ tally: HandOffTally) throws -> Double {
        tally.remaining.store(count, ordering: .relaxed)
        tally.finishedAt.store(0, ordering: .relaxed)
        let start = MonotonicClock.nanoseconds()
        Self.hop(tally, to: second, back: first)
        try waitUntil { tally.finishedAt.load(ordering: .acquiring) != 0 }
        return Double(tally.finishedAt.load(ordering: .acquiring) - start) / Double(count)
    }

    /// Runs a job on `target` that counts one hop and sends the next one back.
    private static func hop(_ tally: HandOffTally, to target: EventLoopHandle, back: EventLoopHandle) {
        target.execute {
            if tally.remaining.wrappingSubtract(1, ordering: .relaxed).newValue <= 0 {
                tally.finishedAt.store(MonotonicClock.nanoseconds(), ordering: .releasing)
            } else {
                hop(tally, to: back, back: target)
            }
        }
    }

    /// `count` jobs queued on `loop` from this thread; (wall ns, CPU ns of this process) per job.
    private func batchedHandOff(_ count: Int, to loop: EventLoopHandle, _ tally: HandOffTally) throws -> (wall: Double, cpu: Double) {
        tally.count.store(0, ordering: .relaxed)
        let usageBefore = try BenchDaemon.usage(of: getpid())
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<count {
            loop.execute { tally.count.wrappingAdd(1, ordering: .relaxed) }
        }
        try waitUntil { tally.count.load(ordering: .relaxed) == count }
        let elapsed = MonotonicClock.nanoseconds() - start
        let usageAfter = try BenchDaemon.usage(of: getpid())
        let ticks = usageAfter.user + usageAfter.system - usageBefore.user - usageBefore.system
        return (Double(elapsed) / Double(count), Double(ticks) * BenchDaemon.nanosecondsPerTick / Double(count))
    }

    /// The hand-off's job called `count` times on this thread through a closure; ns per call.
    private func directCalls(_ count: Int, _ tally: HandOffTally) -> Double {
        let jobs: [@Sendable () -> Void] = [{ tally.count.wrappingAdd(1, ordering: .relaxed) }]
        let start = MonotonicClock.nanoseconds()
        for index in 0..<count { jobs[index & 0]() }
        return Double(MonotonicClock.nanoseconds() - start) / Double(count)
    }

    /// Polls `done` every 50 µs for up to 30 s.
    private func waitUntil(_ done: () -> Bool) throws {
        let start = MonotonicClock.nanoseconds()
        while !done() {
            if MonotonicClock.nanoseconds() - start > 30_000_000_000 { throw BenchFailure("hand-off did not finish within 30 s") }
            CurrentProcess.sleep(for: .microseconds(50))
        }
    }
}
