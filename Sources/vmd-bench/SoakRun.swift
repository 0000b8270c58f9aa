import JSONCore
import Posix

#if canImport(Glibc)
import Glibc
#endif

/// One soak run (see Sources/vmd-bench/Soak.swift): starts the daemon, loads it, samples it,
/// tears the load down and checks the daemon went back to its baseline.
final class SoakRun {
    let settings: SoakSettings
    let directory: String
    let socketPath: String
    let daemon: ChildProcess
    private var random = SystemRandomNumberGenerator()

    /// One sample of the daemon.
    struct Sample {
        var rss: Int
        var fds: Int
        var instances: Int
        var subscriptions: Int
        var description: String { "RSS \(rss / 1024) KiB, \(fds) fds, \(instances) instances, \(subscriptions) subscriptions" }
    }

    init(settings: SoakSettings) throws {
        self.settings = settings
        UnixSignal.ignoreBrokenPipe()
        _ = try? ResourceLimits.raiseOpenFileLimit()
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmd-soak-XXXXXX")
        socketPath = directory + "/vmd.sock"
        let own = CommandLine.arguments.first ?? "vmd-bench"
        let absolute = own.hasPrefix("/") ? own : (CurrentProcess.workingDirectory ?? ".") + "/" + own
        let vmd = (FileSystem.parentDirectory(of: absolute) ?? ".") + "/vmd"
        daemon = try ChildProcess.spawn(
            vmd,
            arguments: ["--socket", socketPath, "--state-dir", directory + "/state", "--log-level", "warning",
                        "--max-connections", "8192"],
            environment: CurrentProcess.environment.filter { !$0.key.hasPrefix("LISTEN_") && !$0.key.hasPrefix("VMD_") && $0.key != "NOTIFY_SOCKET" },
            standardInput: "/dev/null", outputPath: directory + "/vmd.log")
    }

    /// Stops the daemon; keeps its directory (log and state) when the run failed.
    func stopDaemon(keepDirectory: Bool) {
        try? daemon.send(.terminate)
        _ = try? daemon.wait()
        if keepDirectory {
            print("soak: daemon log and state kept in \(directory)")
        } else if let remover = try? ChildProcess.spawn("/bin/rm", arguments: ["-rf", "--", directory]) {
            _ = try? remover.wait()
        }
    }

    func run() throws -> Bool {
        try waitUntilListening()
        let control = try SoakClient(path: socketPath)
        // Warm up once before the baseline: lazily built tables, malloc arenas, and the fds
        // libdispatch opens on the first async action (its epoll and event fds).
        let warm = try SoakClient(path: socketPath)
        try warm.call("vm.create", #"{"type":"Counter","scope":"connection"}"#)
        try warm.call("vm.create", #"{"type":"Login","id":"soak-warm","scope":"connection","args":{"latencyMs":1}}"#)
        try warm.call("vm.send", #"{"instance":"soak-warm","input":"email","value":"demo@example.com"}"#)
        try warm.call("vm.send", #"{"instance":"soak-warm","input":"password","value":"secret"}"#)
        try warm.call("vm.execute", #"{"instance":"soak-warm","action":"submit"}"#)
        try warm.call("vm.types")
        warm.close()
        try waitFor(seconds: 5) { try sample(control).instances == 0 }
        let baseline = try sample(control)
        print("soak: \(settings.seconds) s, \(settings.idleConnections) idle connections, \(settings.instances) instances,"
              + " \(settings.subscribers) subscribers (\(settings.slowReaders) never read)")
        print("baseline: \(baseline.description)")

        // Idle connections, then idle instances, each measured by RSS growth.
        var idle: [SoakClient] = []
        for _ in 0..<settings.idleConnections { idle.append(try SoakClient(path: socketPath)) }
        try control.call("daemon.info")  // answered after the daemon accepted them all
        let withIdle = try sample(control)
        let owner = try SoakClient(path: socketPath)
        for index in 0..<settings.instances {
            try owner.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"vm.create","params":{"type":"Counter","scope":"connection"}}"#)
            if index % 500 == 499 { try owner.call("daemon.info") }  // keep the pipeline bounded
        }
        try owner.call("daemon.info")
        let withInstances = try sample(control)
        let perConnection = (withIdle.rss - baseline.rss) / max(1, settings.idleConnections)
        let perInstance = (withInstances.rss - withIdle.rss) / max(1, settings.instances)
        print("idle: +\(perConnection) RSS bytes per idle connection, +\(perInstance) RSS bytes per idle Counter")

        // Fan-out, slow readers, the writer and the Login.
        let writer = try SoakClient(path: socketPath)
        try writer.call("vm.create", #"{"type":"Counter","id":"soak-fan","scope":"connection"}"#)
        try writer.call("vm.create", #"{"type":"Login","id":"soak-login","scope":"connection","args":{"latencyMs":5}}"#)
        try writer.call("vm.send", #"{"instance":"soak-login","input":"email","value":"demo@example.com"}"#)
        try writer.call("vm.send", #"{"instance":"soak-login","input":"password","value":"secret"}"#)
        var readers: [SoakClient] = []
        for _ in 0..<settings.subscribers { readers.append(try subscriber()) }
        let slow = Array(readers.prefix(settings.slowReaders))
        var fast = Array(readers.dropFirst(settings.slowReaders))

        var sendTimes: [UInt64] = []
        var executeTimes: [UInt64] = []
        var requests = 0
        var killed = 0
        var linesOfKilledReaders = 0
        var peak = withInstances
        let start = MonotonicClock.nanoseconds()
        let end = start + UInt64(settings.seconds) * 1_000_000_000
        var nextSample = start + 1_000_000_000
        var iteration = 0
        while MonotonicClock.nanoseconds() < end {
            iteration += 1
            let before = MonotonicClock.nanoseconds()
            try writer.call("vm.send", #"{"instance":"soak-fan","input":"increment","value":1}"#)
            sendTimes.append(MonotonicClock.nanoseconds() - before)
            requests += 1
            if iteration % 10 == 0 {
                let before = MonotonicClock.nanoseconds()
                try writer.call("vm.execute", #"{"instance":"soak-login","action":"submit"}"#)
                executeTimes.append(MonotonicClock.nanoseconds() - before)
                requests += 1
            }
            for reader in fast { _ = try reader.drain() }
            if iteration % 25 == 0 {
                try churn()
                killed += 1
            }
            if iteration % 200 == 0, let victim = fast.indices.randomElement(using: &random) {
                linesOfKilledReaders += fast[victim].linesDrained
                fast[victim].close()  // a subscriber killed mid-stream, replaced by a new one
                fast[victim] = try subscriber()
                killed += 1
            }
            let now = MonotonicClock.nanoseconds()
            if now >= nextSample {
                nextSample = now + 1_000_000_000
                let current = try sample(control)
                peak.rss = max(peak.rss, current.rss)
                peak.fds = max(peak.fds, current.fds)
                peak.instances = max(peak.instances, current.instances)
                peak.subscriptions = max(peak.subscriptions, current.subscriptions)
                let elapsed = Int((now - start) / 1_000_000_000)
                if elapsed % 10 == 0 { print("  t=\(elapsed)s \(current.description)") }
            }
        }
        let elapsed = Double(MonotonicClock.nanoseconds() - start) / 1e9
        let delivered = fast.reduce(linesOfKilledReaders) { $0 + $1.linesDrained }

        // Teardown: everything but the control connection goes away.
        for client in idle + slow + fast + [owner, writer] { client.close() }  // replaced readers are closed already
        var after = try sample(control)
        let settled = try waitFor(seconds: 20) {
            after = try sample(control)
            return after.instances == baseline.instances && after.subscriptions == baseline.subscriptions
                && after.fds == baseline.fds && after.rss <= baseline.rss + settings.rssMarginBytes
        }
        // Freed heap goes back to the kernel once the daemon has been quiet for a moment
        // (HeapTrimmer: a second with at most a trickle of frames, at most one trim per 10 s):
        // sample once a second, which counts as quiet, and report the lowest resident size.
        if settled {
            for _ in 0..<12 {
                sleep(1)
                let later = try sample(control)
                if later.rss < after.rss { after = later }
            }
        }
        control.close()

        print("load: \(requests) requests in \(fixed(elapsed)) s = \(Int(Double(requests) / elapsed))/s answered;"
              + " \(delivered) lines delivered to the reading subscribers (\(Int(Double(delivered) / elapsed))/s);"
              + " \(killed) clients killed")
        print("vm.send round trip: p50 \(micros(percentile(sendTimes, 0.5))) µs, p99 \(micros(percentile(sendTimes, 0.99))) µs")
        print("vm.execute Login.submit (latencyMs 5): p50 \(micros(percentile(executeTimes, 0.5))) µs,"
              + " p99 \(micros(percentile(executeTimes, 0.99))) µs")
        print("peak: \(peak.description)")
        print("after: \(after.description) (baseline \(baseline.description); RSS margin \(settings.rssMarginBytes >> 20) MiB)")
        if !settled {
            print("soak FAILED: the daemon did not return to its baseline within 20 s")
        }
        return settled
    }

    /// A connection subscribed to the fan-out Counter, reading without blocking from now on.
    private func subscriber() throws -> SoakClient {
        let client = try SoakClient(path: socketPath)
        try client.call("vm.subscribe", #"{"instance":"soak-fan"}"#)
        try client.makeNonBlocking()
        return client
    }

    /// A client that creates a connection-scoped TextField, subscribes to it, pipelines some
    /// sends and is closed at a random moment without reading its replies.
    private func churn() throws {
        let client = try SoakClient(path: socketPath)
        let name = "churn-\(UInt32.random(in: 0...UInt32.max, using: &random))"
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"TextField","id":"\#(name)","scope":"connection","subscribe":{}}}"#)
        for index in 0..<Int.random(in: 0...20, using: &random) {
            try client.send(#"{"jsonrpc":"2.0","id":\#(index + 2),"method":"vm.send","params":{"instance":"\#(name)","input":"type","value":"text \#(index)"}}"#)
        }
        client.close()
    }

    private func sample(_ control: SoakClient) throws -> Sample {
        if let ended = try daemon.poll() { throw SoakFailure("vmd ended (\(ended)); see \(directory)/vmd.log") }
        let info = try control.call("daemon.info")
        let list = try control.call("vm.list")
        let subscriptions = (list["instances"]?.arrayValue ?? []).reduce(0) { $0 + ($1["subscribers"]?.intValue ?? 0) }
        return Sample(rss: try residentBytes(), fds: try openDescriptors(),
                      instances: info["instances"]?.intValue ?? -1, subscriptions: subscriptions)
    }

    private func residentBytes() throws -> Int {
        let text = String(decoding: try FileSystem.readFile("/proc/\(daemon.pid)/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.filter(\.isNumber)) ?? 0) * 1024
        }
        throw SoakFailure("no VmRSS in /proc/\(daemon.pid)/status")
    }

    private func openDescriptors() throws -> Int {
        guard let listing = opendir("/proc/\(daemon.pid)/fd") else { throw SoakFailure("cannot list /proc/\(daemon.pid)/fd") }
        defer { closedir(listing) }
        var count = 0
        while readdir(listing) != nil { count += 1 }
        return count - 2  // "." and ".."
    }

    private func waitUntilListening() throws {
        let listening = try waitFor(seconds: 20) {
            if let ended = try daemon.poll() { throw SoakFailure("vmd ended (\(ended)) before listening; see \(directory)/vmd.log") }
            guard let socket = try? UnixSocket.connect(to: UnixSocketAddress(path: socketPath)) else { return false }
            try? socket.close()
            return true
        }
        if !listening { throw SoakFailure("vmd did not listen within 20 s") }
    }

    /// Polls `condition` every 100 ms for up to `seconds`; whether it became true.
    @discardableResult
    private func waitFor(seconds: Int, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds) * 1_000_000_000
        while true {
            if try condition() { return true }
            if MonotonicClock.nanoseconds() >= deadline { return false }
            usleep(100_000)
        }
    }

    private func percentile(_ samples: [UInt64], _ fraction: Double) -> UInt64 {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    private func micros(_ nanoseconds: UInt64) -> String { fixed(Double(nanoseconds) / 1000) }

    private func fixed(_ value: Double) -> String {
        let scaled = Int((value * 10).rounded())
        return "\(scaled / 10).\(abs(scaled % 10))"
    }
}
