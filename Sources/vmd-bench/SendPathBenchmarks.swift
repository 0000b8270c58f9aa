// The vm.send path end to end (issue 12): the built `vmd` (run the release build) in its own
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
    var daemon: ChildProcess?

    init() throws {
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdsp-XXXXXX")
    }

    func run() throws {
        let vmdPath = try vmdBesideBench()
        if !vmdPath.contains("/release/") {
            print("note: \(vmdPath) is not a release build; run `swift build -c release` and the release vmd-bench")
        }
        let echoPath = directory + "/echo.sock"
        let vmdSocket = directory + "/vmd.sock"
        let echo = try LineEchoServer.start(path: echoPath)
        defer { echo.stop() }
        let child = try ChildProcess.spawn(
            vmdPath,
            arguments: ["--socket", vmdSocket, "--log-level", "warning"],
            environment: CurrentProcess.environment.filter { !$0.key.hasPrefix("LISTEN_") && $0.key != "NOTIFY_SOCKET" },
            standardInput: "/dev/null", outputPath: directory + "/vmd.log")
        daemon = child
        defer {
            try? child.send(.terminate)
            _ = try? child.wait()
            _ = try? FileSystem.remove(directory + "/vmd.log")
            try? FileSystem.removeDirectory(directory)
        }
        try waitForSocket(vmdSocket)

        // S1
        let sends = 200_000
        var echoRates: [Double] = []
        var sendRates: [Double] = []
        for _ in 0..<3 {
            echoRates.append(try echoPipelined(echoPath, lines: sends))
            sendRates.append(try incrementsOnOneConnection(vmdSocket, count: sends))
        }
        let echoRate = middle(echoRates), sendRate = middle(sendRates)
        print("S1 pipelined vm.send → vm.output on one connection: \(grouped(sendRate)) increments/s;"
              + " echo \(grouped(echoRate)) lines/s; ratio \(twoDecimals(sendRate / echoRate)) of the echo"
              + "  [aim: ≥ 1,000,000/s]")

        // S2
        let echoClient = try LineClient(path: echoPath)
        let sender = try LineClient(path: vmdSocket)
        let instance = try createSubscribedCounter(sender)
        _ = try echoRoundTrips(echoClient, count: 2000)
        var nextID = 1
        _ = try sendRoundTrips(sender, instance: instance, count: 2000, nextID: &nextID)
        var echoSamples: [UInt64] = []
        var sendSamples: [UInt64] = []
        for _ in 0..<4 {
            echoSamples += try echoRoundTrips(echoClient, count: 5000)
            sendSamples += try sendRoundTrips(sender, instance: instance, count: 5000, nextID: &nextID)
        }
        echoClient.close()
        sender.close()
        let echoTrip = Percentiles(echoSamples), sendTrip = Percentiles(sendSamples)
        print("S2 vm.send → vm.output + reply round trip: p50 \(micros(sendTrip.p50)) µs, p99 \(micros(sendTrip.p99)) µs;"
              + " echo p50 \(micros(echoTrip.p50)) µs, p99 \(micros(echoTrip.p99)) µs;"
              + " ratio p50 \(twoDecimals(Double(sendTrip.p50) / Double(echoTrip.p50)))x,"
              + " p99 \(twoDecimals(Double(sendTrip.p99) / Double(echoTrip.p99)))x  [aim: p50 ≤ 1.1x]")
    }

    // MARK: Workloads

    /// A connection-scoped Counter that `client` created subscribed to; its replay is read.
    private func createSubscribedCounter(_ client: LineClient) throws -> String {
        let created = try client.call(
            #"{"jsonrpc":"2.0","id":0,"method":"vm.create","params":{"type":"Counter","scope":"connection","subscribe":{}}}"#)
        guard let instance = created["result"]?["instance"]?.stringValue else { throw BenchFailure("vm.create failed: \(created)") }
        _ = try client.readLine()  // the replayed count
        return instance
    }

    private func incrementsOnOneConnection(_ path: String, count: Int) throws -> Double {
        let client = try LineClient(path: path)
        defer { client.close() }
        let instance = try createSubscribedCounter(client)
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

    private func echoPipelined(_ path: String, lines: Int) throws -> Double {
        let client = try LineClient(path: path)
        defer { client.close() }
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"counter-1","input":"increment"}}"#.utf8) + [10]
        let payload = repeated(line, lines)
        let writer = try client.duplicateForWriting()
        let start = MonotonicClock.nanoseconds()
        let thread = try PosixThread.spawn { try? writer.writeAll(payload) }
        try client.countLines(lines)
        let elapsed = MonotonicClock.nanoseconds() - start
        thread.join()
        return Double(lines) / (Double(elapsed) / 1e9)
    }

    private func echoRoundTrips(_ client: LineClient, count: Int) throws -> [UInt64] {
        let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"counter-1","input":"increment"}}"#.utf8) + [10]
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = MonotonicClock.nanoseconds()
            try client.write(line)
            _ = try client.readLine()
            samples.append(MonotonicClock.nanoseconds() - start)
        }
        return samples
    }

    private func sendRoundTrips(_ client: LineClient, instance: String, count: Int, nextID: inout Int) throws -> [UInt64] {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let line = Array(#"{"jsonrpc":"2.0","id":\#(nextID),"method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8) + [10]
            nextID += 1
            let start = MonotonicClock.nanoseconds()
            try client.write(line)
            let output = try client.readLine()
            let reply = try client.readLine()
            samples.append(MonotonicClock.nanoseconds() - start)
            guard output.contains(#""method":"vm.output""#), reply.contains(#""result":null"#) else {
                throw BenchFailure("unexpected vm.send exchange: \(output) / \(reply)")
            }
        }
        return samples
    }

    // MARK: Helpers

    private func repeated(_ line: [UInt8], _ count: Int) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(line.count * count)
        for _ in 0..<count { payload += line }
        return payload
    }

    private func vmdBesideBench() throws -> String {
        let own = CommandLine.arguments.first ?? "vmd-bench"
        let absolute = own.hasPrefix("/") ? own : (CurrentProcess.workingDirectory ?? ".") + "/" + own
        let candidate = (FileSystem.parentDirectory(of: absolute) ?? ".") + "/vmd"
        guard (try? FileSystem.info(candidate, followingSymlinks: true)) != nil else {
            throw BenchFailure("no vmd beside vmd-bench at \(candidate); build it first")
        }
        return candidate
    }

    private func waitForSocket(_ path: String) throws {
        let start = MonotonicClock.nanoseconds()
        while MonotonicClock.nanoseconds() - start < 20_000_000_000 {
            if let socket = try? UnixSocket.connect(to: UnixSocketAddress(path: path)) {
                try socket.close()
                return
            }
            if let daemon, let ended = try daemon.poll() {
                throw BenchFailure("vmd \(ended) before listening; see \(directory)/vmd.log")
            }
            _ = try? FileDescriptor.pipe().read.wait(for: .readable, timeout: .milliseconds(5))
        }
        throw BenchFailure("vmd did not listen within 20 s")
    }

    private func middle(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private func micros(_ nanoseconds: UInt64) -> String {
        let tenths = (nanoseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func grouped(_ perSecond: Double) -> String {
        var digits = String(Int(perSecond.rounded()))
        var result = ""
        while digits.count > 3 {
            result = "," + digits.suffix(3) + result
            digits = String(digits.dropLast(3))
        }
        return digits + result
    }

    private func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
