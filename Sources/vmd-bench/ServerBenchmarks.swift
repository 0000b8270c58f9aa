// The server's own cost, in-process (no socket): vm.send → Counter → vm.output, fan-out, and
// vm.create, each beside a baseline measured in the same run.
//
// - (a) W2 without the socket: one connection feeds pre-encoded `vm.send` notifications to a
//   Counter it subscribed to; a counting sink receives one `vm.output` per send. Baseline: the
//   JSON work alone (parse + classify each frame with JSONRPC, encode one `vm.output` with
//   JSONRPCEncoder, hand it to the same kind of sink): what any JSON-RPC server pays per message.
// - (b) W3 without the socket: 50 connections subscribed to one Counter, one writer. Baseline:
//   the same JSON work, encoding each subscriber's own notification (its subscription id and
//   seq), as a server without vmd's encode-once fan-out would.
// - (c) W4: 10,000 `vm.create {type: Counter}` requests: creates/s and RSS bytes per instance
//   (RSS after minus before). Baseline: 10,000 plain objects holding an id and a
//   count, kept in a dictionary by id (the least a counter registry could hold). Memory is the
//   RSS delta (/proc/self/statm; Swift's Glibc module does not expose mallinfo2), measured
//   first, before the other cases free memory that malloc could reuse.
//
// The host runs on a DispatchQueueScheduler and every step runs inside `queue.sync`, so the
// graph is used from its own thread as the contract requires. Medians of several rounds.
//
// For profiling (callgrind counts are stable where timings are not): ONLY=a|b|c picks cases,
// SENDS and ROUNDS shrink them, e.g. `ONLY=a SENDS=20000 ROUNDS=1 valgrind --tool=callgrind
// .build/release/vmd-bench server`, then compare Server.frameReceived with jsonOnly inclusive.

import Foundation
import JSONCore
import JSONRPC
import ReactiveCore
import VMServer
import ViewModelCatalog
import VMProtocol
import ViewModelKit

func runServerBenchmarks() {
    let queue = DispatchQueue(label: "vmd-bench.server")
    queue.sync {
        let sends = Int(ProcessInfo.processInfo.environment["SENDS"] ?? "") ?? 200_000
        let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 5
        let only = ProcessInfo.processInfo.environment["ONLY"] ?? "abc"
        if only.contains("c") { benchmarkCreates(count: 10_000, queue: queue) }
        if only.contains("a") { benchmarkSends(subscribers: 1, sends: sends, rounds: rounds, queue: queue) }
        if only.contains("b") { benchmarkSends(subscribers: 50, sends: sends / 10, rounds: rounds, queue: queue) }
    }
}

// MARK: (a) and (b)

private func benchmarkSends(subscribers: Int, sends: Int, rounds: Int, queue: DispatchQueue) {
    let frames = (0..<sends).map { _ in
        Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"counter-1","input":"increment","value":1}}"#.utf8)
    }
    var serverTimes: [Duration] = []
    var baselineTimes: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let bench = ServerBench(queue: queue)
        let readers = (0..<subscribers).map { _ in bench.connect() }
        let writer = bench.connect()
        bench.request(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","id":"counter-1"}}"#, on: writer.id)
        for reader in readers {
            bench.request(#"{"jsonrpc":"2.0","id":2,"method":"vm.subscribe","params":{"instance":"counter-1","replay":false}}"#, on: reader.id)
            reader.sink.reset()
        }
        let sinks = readers.map(\.sink)
        serverTimes.append(clock.measure {
            for frame in frames { bench.feed(frame, on: writer.id) }
        })
        let delivered = sinks.reduce(0) { $0 + $1.messages }
        precondition(delivered == sends * subscribers, "expected \(sends * subscribers) vm.output, got \(delivered)")

        let baselineSinks = (0..<subscribers).map { _ in CountingSink() }
        baselineTimes.append(clock.measure { jsonOnly(frames, sinks: baselineSinks) })
        precondition(baselineSinks.reduce(0) { $0 + $1.messages } == sends * subscribers)
    }
    let server = median(serverTimes)
    let baseline = median(baselineTimes)
    let delivered = Double(sends * subscribers)
    let label = subscribers == 1 ? "(a) vm.send → Counter → 1 subscriber" : "(b) vm.send → Counter → \(subscribers) subscribers"
    print("\(label): \(rate(Double(sends) / seconds(server))) sends/s, \(rate(delivered / seconds(server))) delivered/s")
    print("    baseline, JSON parse + encode per subscriber + enqueue alone: \(rate(delivered / seconds(baseline))) delivered/s")
    print("    ratio (server time / baseline time): \(fixed(seconds(server) / seconds(baseline)))x")
}

/// What any JSON-RPC server pays per message: parse and classify the frame, then for each
/// subscriber encode its `vm.output` notification (its own subscription id and seq) and
/// enqueue it on its sink.
@inline(never)
private func jsonOnly(_ frames: [[UInt8]], sinks: [CountingSink]) {
    var buffer: [UInt8] = []
    var count: Int64 = 0
    var seq: Int64 = 0
    let subscriptionIDs = sinks.indices.map { JSONValue.string("s\($0 + 1)") }
    for frame in frames {
        let entry = frame.withUnsafeBytes { JSONRPCDecoder.decode($0) }
        guard case .single(.message(.notification(let notification))) = entry,
              let step = notification.params?["value"]?.intValue else { preconditionFailure("bad frame") }
        count += Int64(step)
        seq += 1
        for (index, sink) in sinks.enumerated() {
            buffer.removeAll(keepingCapacity: true)
            let params: JSONValue = [
                "subscription": subscriptionIDs[index], "instance": "counter-1", "output": "count",
                "value": .integer(count), "seq": .integer(seq),
            ]
            JSONRPCEncoder.appendNotification(method: "vm.output", params: params, to: &buffer)
            buffer.withUnsafeBytes { sink.enqueue(message: $0) }
        }
    }
}

// MARK: (c)

private func benchmarkCreates(count: Int, queue: DispatchQueue) {
    let frames = (0..<count).map { index in
        Array(#"{"jsonrpc":"2.0","id":\#(index),"method":"vm.create","params":{"type":"Counter"}}"#.utf8)
    }
    let clock = ContinuousClock()

    // The baseline first, so neither side lands in memory the other freed.
    var plain: [String: PlainCounter] = [:]
    let plainRSSBefore = residentBytes()
    let plainTime = clock.measure {
        for index in 0..<count {
            let id = "counter-\(index + 2)"
            plain[id] = PlainCounter(id: id)
        }
    }
    let plainRSSAfter = residentBytes()
    precondition(plain.count == count)

    let bench = ServerBench(queue: queue)
    let client = bench.connect()
    client.sink.checksErrors = true
    // One create first, so lazily built shared state (type tables, caches) is not counted.
    bench.request(#"{"jsonrpc":"2.0","id":-1,"method":"vm.create","params":{"type":"Counter","id":"warm-up"}}"#, on: client.id)
    client.sink.reset()
    let rssBefore = residentBytes()
    let createTime = clock.measure {
        for frame in frames { bench.feed(frame, on: client.id) }
    }
    let rssAfter = residentBytes()
    precondition(client.sink.messages == count && client.sink.errors == 0, "creates failed: \(client.sink.errors) errors")

    let perInstance = Double(rssAfter - rssBefore) / Double(count)
    let plainPerInstance = Double(plainRSSAfter - plainRSSBefore) / Double(count)
    print("(c) vm.create Counter ×\(count): \(rate(Double(count) / seconds(createTime))) creates/s, "
        + "\(Int(perInstance)) RSS bytes/instance  [aim: < 4096]")
    print("    baseline, plain object + id in a dictionary: \(rate(Double(count) / seconds(plainTime))) creates/s, \(Int(plainPerInstance)) RSS bytes/instance")
    print("    ratio (server / baseline): time \(fixed(seconds(createTime) / seconds(plainTime)))x, bytes \(fixed(perInstance / plainPerInstance))x")
    withExtendedLifetime(bench) {}
}

/// The least a registry of counters holds per instance.
private final class PlainCounter {
    let id: String
    var count = 0
    init(id: String) { self.id = id }
}

// MARK: Plumbing

/// A server on the catalog, driven in-process.
private final class ServerBench {
    let host: ViewModelHost
    let server: Server
    private var nextConnection: UInt64 = 0

    init(queue: DispatchQueue) {
        let scheduler = DispatchQueueScheduler(queue: queue)
        let stateDirectory = NSTemporaryDirectory() + "vmd-bench-\(getpid())"
        do {
            let registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: stateDirectory))
            host = ViewModelHost(registry: registry, scheduler: scheduler)
        } catch {
            fatalError("the catalog does not register: \(error)")
        }
        let identity = ServerIdentity(
            version: "bench", bootId: "00000000000000000000000000000000", pid: Int64(getpid()),
            startedAt: scheduler.now, socketPath: "/nonexistent/vmd-bench.sock", uid: getuid())
        server = Server(host: host, limits: VMLimits(maxInstances: 1_000_000), identity: identity)
    }

    /// A new connection and its sink.
    func connect() -> (id: ConnectionID, sink: CountingSink) {
        nextConnection += 1
        let sink = CountingSink()
        let id = ConnectionID(nextConnection)
        server.connectionOpened(id, peer: PeerIdentity(pid: getpid(), uid: getuid(), gid: getgid()), sink: sink)
        return (id, sink)
    }

    func feed(_ frame: [UInt8], on id: ConnectionID) {
        frame.withUnsafeBytes { server.frameReceived($0, on: id) }
    }

    /// Sends a request that must succeed.
    func request(_ text: String, on id: ConnectionID) {
        feed(Array(text.utf8), on: id)
    }
}

/// Counts what the server writes; never holds bytes back.
private final class CountingSink: ConnectionSink {
    private(set) var messages = 0
    private(set) var bytes = 0
    private(set) var errors = 0
    /// Whether to look for `"error":` in each message (creates only: it costs a scan).
    var checksErrors = false
    var pendingBytes: Int { 0 }

    func enqueue(message: UnsafeRawBufferPointer) {
        messages += 1
        bytes += message.count
        // `"error"` appears only in failures (a Counter's values are integers).
        if checksErrors, containsError(message) { errors += 1 }
    }

    func close() {}

    func reset() {
        messages = 0
        bytes = 0
        errors = 0
    }

    private func containsError(_ message: UnsafeRawBufferPointer) -> Bool {
        let needle = Array(#""error":"#.utf8)
        guard message.count >= needle.count else { return false }
        for start in 0...(message.count - needle.count) where message[start] == needle[0] {
            if (0..<needle.count).allSatisfy({ message[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}

/// Resident set size from /proc/self/statm.
private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

private func median(_ times: [Duration]) -> Duration {
    times.sorted()[times.count / 2]
}

private func seconds(_ duration: Duration) -> Double {
    let (whole, atto) = duration.components
    return Double(whole) + Double(atto) / 1e18
}

private func rate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return "\(fixed(perSecond / 1e6)) M" }
    return "\(Int((perSecond / 1e3).rounded())) k"
}

private func fixed(_ value: Double) -> String {
    "\((value * 100).rounded() / 100)"
}
