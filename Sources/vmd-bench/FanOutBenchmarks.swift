// Fan-out (Performance.md, "Benchmarks"): one writer pipelines vm.send increments into one Counter watched by 50
// subscribers on their own connections; the figure is vm.output notifications delivered per
// second, with the daemon's kernel share of CPU (sys / (user + sys), from /proc/PID/stat) and
// its page faults per delivered notification over the same interval, and the CPU time per
// delivered notification of the daemon (user, system) and of the 50 reading clients (this
// process: its readers and the writer), the split Performance.md's sharding model starts from.
//
// The same-run baseline is another vmd binary (`VMD_BENCH_BASELINE=/path/to/vmd`, e.g. main's
// release build), measured in alternating rounds with the vmd beside vmd-bench; the figures
// are medians of those rounds and the ratio is ours over the baseline's.

#if canImport(Glibc)
import Glibc
#endif
import Posix
import Synchronization

func runFanOutBenchmarks() {
    let subscribers = 50
    let sends = 40_000
    let rounds = 5
    do {
        let own = try FanOutDaemon(path: try BenchDaemon.besideBench(), name: "vmd")
        defer { own.stop() }
        var baseline: FanOutDaemon?
        if let path = CurrentProcess.environment["VMD_BENCH_BASELINE"] {
            baseline = try FanOutDaemon(path: path, name: "baseline")
        } else {
            print("note: no VMD_BENCH_BASELINE=/path/to/vmd given; the figure has no same-run baseline")
        }
        defer { baseline?.stop() }
        var ours: [FanOutFigures] = []
        var theirs: [FanOutFigures] = []
        for _ in 0..<rounds {
            if let baseline { theirs.append(try baseline.measure(subscribers: subscribers, sends: sends)) }
            ours.append(try own.measure(subscribers: subscribers, sends: sends))
        }
        let mine = FanOutFigures.median(ours)
        print("fan-out to \(subscribers) subscribers (\(sends) sends, median of \(rounds)): \(mine)  [aim: ≥ 4,000,000/s]")
        if !theirs.isEmpty {
            let base = FanOutFigures.median(theirs)
            print("baseline (\(CurrentProcess.environment["VMD_BENCH_BASELINE"] ?? "")): \(base)")
            print("ratio: \(fixed(mine.perSecond / base.perSecond))x the baseline's notifications/s")
        }
    } catch {
        print("fan-out benchmark failed: \(error)")
    }
}

/// One measured round (or the median of several).
private struct FanOutFigures: CustomStringConvertible {
    let perSecond: Double
    let kernelShare: Double
    let faultsPerNotification: Double
    let overflows: Int
    /// CPU nanoseconds per delivered notification: the daemon's user and system time, and
    /// this process's (the readers and the writer) user + system time.
    let daemonUser: Double
    let daemonSystem: Double
    let clients: Double

    static func median(_ all: [FanOutFigures]) -> FanOutFigures {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return FanOutFigures(
            perSecond: middle(all.map(\.perSecond)), kernelShare: middle(all.map(\.kernelShare)),
            faultsPerNotification: middle(all.map(\.faultsPerNotification)), overflows: all.reduce(0) { $0 + $1.overflows },
            daemonUser: middle(all.map(\.daemonUser)), daemonSystem: middle(all.map(\.daemonSystem)),
            clients: middle(all.map(\.clients)))
    }

    var description: String {
        "\(Int(perSecond.rounded())) notifications/s; kernel \(Int((kernelShare * 100).rounded()))% of the daemon's CPU;"
            + " \(fixed(faultsPerNotification * 1000)) page faults per 1,000 notifications; \(overflows) vm.overflow;"
            + " CPU ns per notification: daemon user \(Int(daemonUser.rounded())), system \(Int(daemonSystem.rounded())),"
            + " clients \(Int(clients.rounded()))"
    }
}

private struct FanOutFailure: Error, CustomStringConvertible {
    let description: String
}

/// A vmd child process on its own socket.
private final class FanOutDaemon {
    let name: String
    let socket: String
    private let daemon: BenchDaemon

    init(path: String, name: String) throws {
        self.name = name
        daemon = try BenchDaemon(vmdPath: path, directory: try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdf-XXXXXX"))
        socket = daemon.socketPath
        try daemon.waitUntilListening()
    }

    func stop() { daemon.stop() }

    /// (user ticks, system ticks, page faults) of the daemon so far.
    private func usage() throws -> (user: Int, system: Int, faults: Int) { try BenchDaemon.usage(of: daemon.pid) }

    func measure(subscribers: Int, sends: Int) throws -> FanOutFigures {
        let owner = try FanOutClient(path: socket)
        let instance = try owner.create()
        var watchers: [FanOutClient] = []
        for _ in 0..<subscribers {
            let watcher = try FanOutClient(path: socket)
            try watcher.subscribe(instance)
            watchers.append(watcher)
        }
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8) + [10]
        var payload: [UInt8] = []
        payload.reserveCapacity(line.count * sends)
        for _ in 0..<sends { payload += line }
        let totals = FanOutTotals()
        let before = try usage()
        let ownBefore = try BenchDaemon.usage(of: getpid())
        let start = MonotonicClock.nanoseconds()
        let readers = try watchers.map { watcher in
            let handle = FanOutReader(client: watcher)
            return try PosixThread.spawn {
                let (lines, overflows) = (try? handle.client.readUntilCount(sends)) ?? (0, 0)
                totals.add(lines: lines, overflows: overflows)
            }
        }
        try owner.socket.writeAll(payload)
        for reader in readers { reader.join() }
        let elapsed = MonotonicClock.nanoseconds() - start
        let after = try usage()
        let ownAfter = try BenchDaemon.usage(of: getpid())
        owner.close()
        for watcher in watchers { watcher.close() }
        let (lines, overflows) = totals.sums
        guard lines > 0 else { throw FanOutFailure(description: "\(name): nothing delivered") }
        let user = after.user - before.user, system = after.system - before.system
        return FanOutFigures(
            perSecond: Double(lines) / (Double(elapsed) / 1e9),
            kernelShare: user + system == 0 ? 0 : Double(system) / Double(user + system),
            faultsPerNotification: Double(after.faults - before.faults) / Double(lines),
            overflows: overflows,
            daemonUser: Double(user) * BenchDaemon.nanosecondsPerTick / Double(lines),
            daemonSystem: Double(system) * BenchDaemon.nanosecondsPerTick / Double(lines),
            clients: Double(ownAfter.user + ownAfter.system - ownBefore.user - ownBefore.system) * BenchDaemon.nanosecondsPerTick / Double(lines))
    }
}

/// What the reader threads counted.
private final class FanOutTotals: Sendable {
    private let state = Mutex<(lines: Int, overflows: Int)>((0, 0))
    func add(lines: Int, overflows: Int) { state.withLock { $0.lines += lines; $0.overflows += overflows } }
    var sums: (Int, Int) { state.withLock { ($0.lines, $0.overflows) } }
}

/// Hands one client to the one reader thread that uses it.
private struct FanOutReader: @unchecked Sendable {
    // Safe: made on the main thread and then used only by the one reader thread it is passed
    // to; the main thread touches the client again only after joining that thread.
    let client: FanOutClient
}

/// A blocking line client with a receive timeout (a stuck daemon fails the run, never hangs it).
private final class FanOutClient {
    let socket: FileDescriptor
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    func close() { try? socket.close() }

    /// Creates a Counter and returns its id.
    func create() throws -> String {
        try socket.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"}}"#.utf8) + [10])
        let reply = try readLine()
        guard let range = reply.range(of: #""instance":""#), let end = reply[range.upperBound...].firstIndex(of: "\"") else {
            throw FanOutFailure(description: "vm.create failed: \(reply)")
        }
        return String(reply[range.upperBound..<end])
    }

    /// Subscribes to `instance` without replay and waits for the reply.
    func subscribe(_ instance: String) throws {
        try socket.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.subscribe","params":{"instance":"\#(instance)","replay":false}}"#.utf8) + [10])
        let reply = try readLine()
        guard reply.contains(#""result""#) else { throw FanOutFailure(description: "vm.subscribe failed: \(reply)") }
    }

    /// One line (replies come before any output here: nothing is sent yet).
    private func readLine() throws -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let result = try withUnsafeMutableBytes(of: &byte) { try socket.read(into: $0) }
            guard case .bytes = result else { throw FanOutFailure(description: "connection ended") }
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Reads until the output `"value":count}` arrives; returns the lines read and how many
    /// of them were `vm.overflow`.
    func readUntilCount(_ count: Int) throws -> (lines: Int, overflows: Int) {
        let last = Array(#""value":\#(count)}}"#.utf8)
        var lines = 0, overflows = 0
        var text: [UInt8] = []
        while true {
            let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard case .bytes(let read) = result else { throw FanOutFailure(description: "connection ended after \(lines) lines") }
            text.append(contentsOf: chunk[0..<read])
            var finished = false
            let consumed = text.withUnsafeBufferPointer { bytes -> Int in
                var lineStart = 0
                for index in 0..<bytes.count where bytes[index] == 10 {
                    lines += 1
                    // `{"jsonrpc":"2.0","method":"vm.o…`: the method name starts at byte 27;
                    // byte 31 is `u` in vm.output and `v` in vm.overflow.
                    if index - lineStart > 32, bytes[lineStart + 27] == UInt8(ascii: "v"), bytes[lineStart + 31] == UInt8(ascii: "v") {
                        overflows += 1
                    }
                    if index - lineStart >= last.count,
                       UnsafeBufferPointer(rebasing: bytes[(index - last.count)..<index]).elementsEqual(last) {
                        finished = true
                    }
                    lineStart = index + 1
                }
                return lineStart
            }
            if finished { return (lines, overflows) }
            text.removeFirst(consumed)
        }
    }
}
