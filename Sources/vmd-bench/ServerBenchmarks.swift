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
        let bench = InProcessServer(queue: queue)
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

    let bench = InProcessServer(queue: queue)
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

/// Resident set size from /proc/self/statm.
private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

private func rate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return "\(fixed(perSecond / 1e6)) M" }
    return "\(Int((perSecond / 1e3).rounded())) k"
}
