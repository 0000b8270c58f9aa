// The vm.send path end to end (Performance.md, "Benchmarks"): the built `vmd` (run the release build) in its own
// process, driven over its Unix socket by this process, against the raw line echo server of
// DaemonBenchmarks.swift measured in the same run: a bare epoll loop in a process of its own with
// one thread, as vmd is, so both round trips cross the same process switches.
//
// S1  increments/s on one connection: the connection creates a Counter subscribed to itself,
//     a writer thread pipelines 200,000 vm.send notifications on it, and the reader counts
//     until the vm.output carrying the last count arrives. Baseline: the echo's lines/s for the
//     same lines, pipelined on one connection. Median of 3 alternating rounds. Also the CPU
//     time per increment of vmd and of this process (the client), from /proc/PID/stat.
// S2  round trip: a vm.send request until both its vm.output and its reply arrived, p50/p90,
//     against one echoed line, for each placement of client and server (CPUPlacement.swift:
//     one core, two cores, unpinned), since a wake-up on the same core and one on an idle
//     other core differ by tens of µs for the echo and vmd alike. 5 rounds visit every
//     placement in turn; in each, 4 chunks of 500 echo and 500 vm.send round trips alternate.

#if canImport(Glibc)
import Glibc
#endif
import JSONCore
import Posix

func runSendPathBenchmarks() {
    do {
        try SendPathBench().run()
    } catch {
        print("sendpath: failed: \(error)")
    }
}

private final class SendPathBench {
    let directory: String

    init() throws {
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdsp-XXXXXX")
    }

    func run() throws {
        let vmdPath = try BenchDaemon.besideBench()
        if !vmdPath.contains("/release/") {
            print("note: \(vmdPath) is not a release build; run `swift build -c release` and the release vmd-bench")
        }
        let echoPath = directory + "/echo.sock"
        // Declared first, so it runs last: the daemon's stop removes the folder only once the
        // echo's socket is gone too.
        defer { try? FileSystem.removeDirectory(directory) }
        let echo = try LineEchoServer.startProcess(path: echoPath)
        defer { echo.stop() }
        let echoProcess = echo.processID
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory)
        defer { daemon.stop() }
        try daemon.waitUntilListening()
        let vmdSocket = daemon.socketPath

        // S1
        let sends = 200_000
        var echoRates: [Double] = []
        var sendRates: [Double] = []
        var daemonCPU: [Double] = []
        var clientCPU: [Double] = []
        for _ in 0..<3 {
            echoRates.append(try echoPipelinedRate(echoPath, lines: sends))
            let split = try CPUSplit(daemon: daemon.pid)
            sendRates.append(try incrementsOnOneConnection(vmdSocket, count: sends))
            let cpu = try split.perOperation(sends)
            daemonCPU.append(cpu.daemon)
            clientCPU.append(cpu.client)
        }
        let echoRate = middleValue(echoRates), sendRate = middleValue(sendRates)
        let daemonPer = middleValue(daemonCPU), clientPer = middleValue(clientCPU)
        print("S1 pipelined vm.send → vm.output on one connection: \(groupedRate(sendRate)) increments/s;"
              + " echo \(groupedRate(echoRate)) lines/s; ratio \(twoDecimals(sendRate / echoRate)) of the echo"
              + "; CPU ns per increment: vmd \(Int(daemonPer.rounded())), client \(Int(clientPer.rounded()))"
              + " (vmd \(Int((100 * daemonPer / max(daemonPer + clientPer, 1)).rounded()))%)"
              + "  [aim: ≥ 1,000,000/s]")

        // S2
        try roundTrips(vmdSocket: vmdSocket, echoPath: echoPath, echoProcess: echoProcess, daemon: daemon.pid)
    }

    /// S2 in each placement of client and server (CPUPlacement.swift), interleaved: every round
    /// visits every placement, and within one placement echo and vm.send alternate in chunks.
    private func roundTrips(vmdSocket: String, echoPath: String, echoProcess: Int32?, daemon: Int32) throws {
        let client = getpid()  // the main thread, which runs every suite (main.swift), has the process id
        var placements = echoProcess == nil ? [CPUPlacement.unpinned] : CPUPlacement.available
        // A cpuset without CPUs 0 and 1 (or a refused taskset) leaves only the scheduler's choice.
        if placements.count > 1, (try? place(.oneCore, client: client, echoProcess: echoProcess, daemon: daemon)) == nil {
            placements = [.unpinned]
        }
        let echoClient = try LineClient(path: echoPath)
        let sender = try CounterSender(path: vmdSocket)
        defer {
            echoClient.close()
            sender.close()
            try? place(.unpinned, client: client, echoProcess: echoProcess, daemon: daemon)
        }
        _ = try echoRoundTrips(echoClient, count: 2000)
        _ = try sender.roundTrips(count: 2000)
        var echoSamples: [CPUPlacement: [UInt64]] = [:]
        var sendSamples: [CPUPlacement: [UInt64]] = [:]
        // How often the client and the server had last run on the same CPU, checked after
        // each chunk (the echo's only thread, then vmd's).
        var sameCPU: [CPUPlacement: (echo: Int, vmd: Int, checks: Int)] = [:]
        let rounds = 5, chunks = 4, chunk = 500
        for round in 0..<rounds {
            for placement in placements {
                try place(placement, client: client, echoProcess: echoProcess, daemon: daemon)
                // Let both sides migrate and settle before sampling.
                _ = try echoRoundTrips(echoClient, count: 100)
                _ = try sender.roundTrips(count: 100)
                var tally = sameCPU[placement] ?? (0, 0, 0)
                for index in 0..<chunks {
                    if (round + index) % 2 == 0 {
                        echoSamples[placement, default: []] += try echoRoundTrips(echoClient, count: chunk)
                        sendSamples[placement, default: []] += try sender.roundTrips(count: chunk)
                    } else {
                        sendSamples[placement, default: []] += try sender.roundTrips(count: chunk)
                        echoSamples[placement, default: []] += try echoRoundTrips(echoClient, count: chunk)
                    }
                    let own = Affinity.lastCPU(of: client, in: client)
                    if let echoProcess, own != nil, own == Affinity.lastCPU(of: echoProcess, in: echoProcess) { tally.echo += 1 }
                    if own != nil, own == Affinity.lastCPU(of: daemon, in: daemon) { tally.vmd += 1 }
                    tally.checks += 1
                }
                sameCPU[placement] = tally
            }
        }
        for placement in placements {
            let echo = Percentiles(echoSamples[placement] ?? []), send = Percentiles(sendSamples[placement] ?? [])
            let tally = sameCPU[placement] ?? (0, 0, 0)
            print("S2 vm.send → vm.output + reply round trip, \(placement.rawValue)"
                  + " (\(send.sorted.count) samples each): p50 \(microsText(send.p50)) µs, p90 \(microsText(send.p90)) µs;"
                  + " echo p50 \(microsText(echo.p50)) µs, p90 \(microsText(echo.p90)) µs;"
                  + " ratio p50 \(twoDecimals(Double(send.p50) / Double(max(1, echo.p50))))x,"
                  + " p90 \(twoDecimals(Double(send.p90) / Double(max(1, echo.p90))))x"
                  + "; same CPU as the client: echo \(tally.echo)/\(tally.checks), vmd \(tally.vmd)/\(tally.checks)"
                  + "  [aim: p50 ≤ 1.1x]")
        }
        if echoProcess == nil || placements.count < CPUPlacement.allCases.count {
            print("note: S2 ran only \(placements.map(\.rawValue)) (needs taskset and CPUs 0 and 1)")
        }
    }

    /// Pins the client thread, the echo server's process and vmd for `placement`.
    private func place(_ placement: CPUPlacement, client: Int32, echoProcess: Int32?, daemon: Int32) throws {
        guard Affinity.tasksetPath != nil else { return }
        let cpus = placement.cpus
        try Affinity.pin(client, to: cpus.client)
        if let echoProcess { try Affinity.pin(echoProcess, to: cpus.server, wholeProcess: true) }
        try Affinity.pin(daemon, to: cpus.server, wholeProcess: true)
    }

    // MARK: Workloads

    private func incrementsOnOneConnection(_ path: String, count: Int) throws -> Double {
        let sender = try CounterSender(path: path)
        defer { sender.close() }
        let client = sender.client, instance = sender.instance
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8) + [10]
        let payload = repeated(line, count)
        let writer = try client.duplicateForWriting()
        let start = MonotonicClock.nanoseconds()
        let thread = try PosixThread.spawn { try? writer.writeAll(payload) }
        try client.waitForValue(count)
        let elapsed = MonotonicClock.nanoseconds() - start
        thread.join()
        return Double(count) / (Double(elapsed) / 1e9)
    }

    // MARK: Helpers

    private func repeated(_ line: [UInt8], _ count: Int) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(line.count * count)
        for _ in 0..<count { payload += line }
        return payload
    }
}
