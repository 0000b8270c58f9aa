// `vm.create` against a real daemon (vmd beside vmd-bench, started for the suite), each figure
// beside a baseline measured in the same run:
//
// - RSS per idle Counter: the daemon's VmRSS before and after 10,000 `vm.create {type:
//   Counter}` (no subscription; the instances stay), divided by 10,000. Measured first, on the
//   fresh daemon. Baseline: the RSS this process grows by for 10,000 plain objects holding an
//   id and a count, kept in a dictionary by id (the least a counter registry could hold).
// - creates/s with 64 in flight: one connection keeps 64 `vm.create` requests outstanding
//   (a new one written for each reply read) until 20,000 were answered. Baseline: the same
//   window of `daemon.info` requests on the same connection (the daemon's cheapest reply:
//   what framing, dispatch and the socket cost), so the ratio is what creating adds. Also the
//   CPU time per create of vmd and of this process (the client), from /proc/PID/stat.
//
// Rounds alternate the two request kinds and the medians are reported (the machine is shared).

import Posix
#if canImport(Glibc)
import Glibc
#endif

func runCreateBenchmarks() {
    do {
        try CreateBench().run()
    } catch {
        print("create benchmarks failed: \(error)")
    }
}

private final class CreateBench {
    let directory: String

    init() throws {
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdc-XXXXXX")
    }

    func run() throws {
        let vmdPath = try BenchDaemon.besideBench()
        if !vmdPath.contains("/release/") { print("note: \(vmdPath) is not a release build") }
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory)
        defer { daemon.stop() }
        let client = try daemon.connectWhenListening { try WindowClient(path: $0) }

        // RSS per idle Counter, on the fresh daemon.
        let count = 10_000
        try client.window(total: 1, inFlight: 1) { _ in #"{"jsonrpc":"2.0","id":0,"method":"daemon.info"}"# }
        let before = try BenchDaemon.residentBytes(pid: daemon.pid)
        try client.window(total: count, inFlight: 64) { index in
            #"{"jsonrpc":"2.0","id":\#(index + 1),"method":"vm.create","params":{"type":"Counter"}}"#
        }
        let after = try BenchDaemon.residentBytes(pid: daemon.pid)
        let perCounter = Double(after - before) / Double(count)
        // Freed heap of earlier suites would be reused without growing the RSS: return it first.
        Heap.trim()
        let plainBefore = try BenchDaemon.residentBytes(pid: getpid())
        var plain: [String: PlainCounter] = [:]
        for index in 0..<count { plain["counter-\(index)"] = PlainCounter(id: "counter-\(index)") }
        let plainAfter = try BenchDaemon.residentBytes(pid: getpid())
        let plainPer = Double(plainAfter - plainBefore) / Double(count)
        print("RSS per idle Counter (10,000 vm.create): \(Int(perCounter)) bytes"
              + " (\(before / 1024) → \(after / 1024) KiB)  [aim: ≤ 2048]")
        print("    baseline, a plain object + id in a dictionary: \(Int(plainPer)) bytes;"
              + " ratio \(fixed(perCounter / max(plainPer, 1)))x")
        withExtendedLifetime(plain) {}

        // Creates/s with 64 in flight, alternating with the baseline.
        let total = 20_000
        var creates: [Double] = []
        var infos: [Double] = []
        var daemonCPU: [Double] = []
        var clientCPU: [Double] = []
        var nextID = count + 1
        for _ in 0..<3 {
            let first = nextID
            let split = try CPUSplit(daemon: daemon.pid)
            creates.append(try client.timedWindow(total: total, inFlight: 64) { index in
                #"{"jsonrpc":"2.0","id":\#(first + index),"method":"vm.create","params":{"type":"Counter"}}"#
            })
            let cpu = try split.perOperation(total)
            daemonCPU.append(cpu.daemon)
            clientCPU.append(cpu.client)
            nextID += total
            infos.append(try client.timedWindow(total: total, inFlight: 64) { index in
                #"{"jsonrpc":"2.0","id":\#(index),"method":"daemon.info"}"#
            })
        }
        let create = creates.sorted()[creates.count / 2]
        let info = infos.sorted()[infos.count / 2]
        let daemonPer = middleValue(daemonCPU), clientPer = middleValue(clientCPU)
        print("vm.create, 64 in flight: \(Int(create)) creates/s; CPU ns per create: vmd \(Int(daemonPer.rounded())),"
              + " client \(Int(clientPer.rounded()))  [aim: ≥ 150,000]")
        print("    baseline, daemon.info with the same window: \(Int(info)) replies/s;"
              + " ratio \(fixed(create / info))x")
        client.close()
    }
}

/// The baseline's object: an id and a count.
private final class PlainCounter {
    let id: String
    var count = 0
    init(id: String) { self.id = id }
}

/// One connection that keeps a window of requests outstanding: a new request is written for
/// each reply line read. Every request must get exactly one line back (no subscriptions).
private final class WindowClient {
    let socket: FileDescriptor
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    func close() { try? socket.close() }

    /// Sends `total` requests (`request(index)`), at most `inFlight` unanswered at a time, and
    /// reads every reply; fails on an error reply.
    func window(total: Int, inFlight: Int, _ request: (Int) -> String) throws {
        var sent = 0
        var answered = 0
        var batch: [UInt8] = []
        while sent < min(inFlight, total) {
            batch += Array(request(sent).utf8) + [10]
            sent += 1
        }
        try socket.writeAll(batch)
        let errorNeedle = Array(#""error":"#.utf8)
        while answered < total {
            let read = try readChunk()
            let bytes = chunk[0..<read]
            if contains(errorNeedle, in: bytes) {
                throw BenchFailure("an error reply: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
            }
            let replies = bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            answered += replies
            batch.removeAll(keepingCapacity: true)
            var more = replies
            while more > 0, sent < total {
                batch += Array(request(sent).utf8) + [10]
                sent += 1
                more -= 1
            }
            if !batch.isEmpty { try socket.writeAll(batch) }
        }
    }

    /// ``window(total:inFlight:_:)``, as replies per second.
    func timedWindow(total: Int, inFlight: Int, _ request: (Int) -> String) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        try window(total: total, inFlight: inFlight, request)
        return Double(total) / (Double(MonotonicClock.nanoseconds() - start) / 1e9)
    }

    private func readChunk() throws -> Int {
        let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
        switch result {
        case .bytes(let count): return count
        case .endOfFile: throw BenchFailure("the daemon closed the connection")
        case .wouldBlock: throw BenchFailure("no reply within 30 s")
        }
    }

    private func contains(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
