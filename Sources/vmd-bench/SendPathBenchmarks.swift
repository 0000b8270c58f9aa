// The vm.send path end to end (README.md, "Benchmarks"): the built `vmd` (run the release build) in its own
// process, driven over its Unix socket by this process, against the raw line echo server of
// DaemonBenchmarks.swift (a bare epoll loop in this process) measured in the same run.
//
// S1  increments/s on one connection: the connection creates a Counter subscribed to itself,
//     a writer thread pipelines 200,000 vm.send notifications on it, and the reader counts
//     until the vm.output carrying the last count arrives. Baseline: the echo's lines/s for the
//     same lines, pipelined on one connection. Median of 3 alternating rounds.
// S2  round trip: a vm.send request until both its vm.output and its reply arrived, p50/p99,
//     against one echoed line, in 4 alternating rounds of 5,000.

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
        let echo = try LineEchoServer.start(path: echoPath)
        defer { echo.stop() }
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory)
        defer { daemon.stop() }
        try daemon.waitUntilListening()
        let vmdSocket = daemon.socketPath

        // S1
        let sends = 200_000
        var echoRates: [Double] = []
        var sendRates: [Double] = []
        for _ in 0..<3 {
            echoRates.append(try echoPipelinedRate(echoPath, lines: sends))
            sendRates.append(try incrementsOnOneConnection(vmdSocket, count: sends))
        }
        let echoRate = middleValue(echoRates), sendRate = middleValue(sendRates)
        print("S1 pipelined vm.send → vm.output on one connection: \(groupedRate(sendRate)) increments/s;"
              + " echo \(groupedRate(echoRate)) lines/s; ratio \(twoDecimals(sendRate / echoRate)) of the echo"
              + "  [aim: ≥ 1,000,000/s]")

        // S2
        let echoClient = try LineClient(path: echoPath)
        let sender = try CounterSender(path: vmdSocket)
        _ = try echoRoundTrips(echoClient, count: 2000)
        _ = try sender.roundTrips(count: 2000)
        var echoSamples: [UInt64] = []
        var sendSamples: [UInt64] = []
        for _ in 0..<4 {
            echoSamples += try echoRoundTrips(echoClient, count: 5000)
            sendSamples += try sender.roundTrips(count: 5000)
        }
        echoClient.close()
        sender.close()
        let echoTrip = Percentiles(echoSamples), sendTrip = Percentiles(sendSamples)
        print("S2 vm.send → vm.output + reply round trip: p50 \(microsText(sendTrip.p50)) µs, p99 \(microsText(sendTrip.p99)) µs;"
              + " echo p50 \(microsText(echoTrip.p50)) µs, p99 \(microsText(echoTrip.p99)) µs;"
              + " ratio p50 \(twoDecimals(Double(sendTrip.p50) / Double(echoTrip.p50)))x,"
              + " p99 \(twoDecimals(Double(sendTrip.p99) / Double(echoTrip.p99)))x  [aim: p50 ≤ 1.1x]")
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
