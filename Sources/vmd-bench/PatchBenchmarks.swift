// RFC 6902 patch subscriptions (Protocol/PROTOCOL.md, "Patches"), in-process (no socket), every figure beside a
// baseline of the same run:
//
// - (p) one `toggle` in a 10,000-item TodoList with 10 subscribers taking `patches` vs 10
//   plain subscribers: bytes written per subscriber per change, and server time per change
//   (vm.send parsed, the view model's new list, encode, diff, fan-out). Baseline: encoding the
//   full list once and handing it to one sink (what one value subscriber costs today).
// - (f) `clearDone` on a 10,000-item list where every item is done (the patch would be
//   longer than the value, so the daemon falls back to `value`): server time with 10 patch
//   subscribers vs 10 plain ones, and the failed diff attempt alone.
// - (s) the toggle over the real socket with daemon CPU time: PatchSocketBenchmarks.swift.
//
// Usage: vmd-bench patch   (CHANGES and ROUNDS shrink it)

import Foundation
import JSONCore
import ReactiveCore
import VMProtocol
import VMServer
import ViewModelCatalog
import ViewModelKit

func runPatchBenchmarks() {
    let queue = DispatchQueue(label: "vmd-bench.patch")
    queue.sync {
        let changes = Int(ProcessInfo.processInfo.environment["CHANGES"] ?? "") ?? 200
        let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 3
        benchmarkToggles(items: 10_000, subscribers: 10, changes: changes, rounds: rounds, queue: queue)
        benchmarkClearDone(items: 10_000, subscribers: 10, rounds: max(rounds, 5), queue: queue)
    }
    let environment = ProcessInfo.processInfo.environment
    runPatchSocketBenchmark(
        items: 10_000, subscribers: 10, changes: Int(environment["SOCKET_CHANGES"] ?? "") ?? 100,
        rounds: max(Int(environment["ROUNDS"] ?? "") ?? 3, 3))
}

private let clock = ContinuousClock()

private func createList(_ bench: InProcessServer, on id: ConnectionID, items: Int, done: Bool) {
    var seeds: [JSONValue] = []
    seeds.reserveCapacity(items)
    for index in 0..<items {
        seeds.append(["title": .string("Item number \(index) of the benchmark list"), "done": .bool(done)])
    }
    let params: JSONValue = ["type": "TodoList", "id": "todo", "args": ["items": .array(seeds)]]
    bench.request(["jsonrpc": "2.0", "id": 1, "method": "vm.create", "params": params], on: id)
}

/// Server time per change and bytes per subscriber per change, for subscribers with or without patches.
private func measureToggles(items: Int, subscribers: Int, changes: Int, patches: Bool, queue: DispatchQueue) -> (seconds: Double, bytes: Double, value: Int) {
    let bench = InProcessServer(queue: queue)
    let writer = bench.connect()
    createList(bench, on: writer.id, items: items, done: false)
    let readers = (0..<subscribers).map { _ in bench.connect() }
    for reader in readers {
        bench.request(["jsonrpc": "2.0", "id": 2, "method": "vm.subscribe", "params": ["instance": "todo", "outputs": ["items"], "patches": .bool(patches)]], on: reader.id)
        reader.sink.reset()
    }
    // Toggles spread over the list, each a different item (pre-encoded frames).
    let frames = (0..<changes).map { change in
        Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"todo","input":"toggle","value":\#(1 + (change * 7919) % items)}}"#.utf8)
    }
    let time = clock.measure {
        for frame in frames { bench.feed(frame, on: writer.id) }
    }
    let written = readers.reduce(0) { $0 + $1.sink.bytes }
    let messages = readers.reduce(0) { $0 + $1.sink.messages }
    precondition(messages == changes * subscribers, "expected \(changes * subscribers) vm.output, got \(messages)")
    let value = (try? bench.host.instance("todo")).flatMap { try? $0.currentValue(output: "items") }?.encodedBytes().count ?? 0
    return (seconds(time) / Double(changes), Double(written) / Double(changes * subscribers), value)
}

private func benchmarkToggles(items: Int, subscribers: Int, changes: Int, rounds: Int, queue: DispatchQueue) {
    var patchRuns: [(seconds: Double, bytes: Double, value: Int)] = []
    var valueRuns: [(seconds: Double, bytes: Double, value: Int)] = []
    var oneValueRuns: [(seconds: Double, bytes: Double, value: Int)] = []
    var encodeOnce: [Double] = []
    var diffAlone: [Double] = []
    for _ in 0..<rounds {
        patchRuns.append(measureToggles(items: items, subscribers: subscribers, changes: changes, patches: true, queue: queue))
        valueRuns.append(measureToggles(items: items, subscribers: subscribers, changes: changes, patches: false, queue: queue))
        oneValueRuns.append(measureToggles(items: items, subscribers: 1, changes: changes, patches: false, queue: queue))
        // Baseline: encode the full list once and enqueue it on one sink, per change.
        let list: JSONValue = .array((0..<items).map { ["id": .integer(Int64($0 + 1)), "title": .string("Item number \($0) of the benchmark list"), "done": false] })
        let sink = CountingSink()
        var buffer: [UInt8] = []
        let time = clock.measure {
            for _ in 0..<changes {
                buffer.removeAll(keepingCapacity: true)
                JSONSerializer.append(list, to: &buffer)
                buffer.withUnsafeBytes { sink.enqueue(message: $0) }
            }
        }
        encodeOnce.append(seconds(time) / Double(changes))
        // The diff the server computes once per change (shared by the 10 subscribers).
        guard case .array(var toggled) = list, case .object(var item) = toggled[items / 2] else { preconditionFailure("the list") }
        item["done"] = true
        toggled[items / 2] = .object(item)
        let after = JSONValue.array(toggled)
        var operations = 0
        let diffTime = clock.measure {
            for _ in 0..<changes { operations += JSONPatch(from: list, to: after, maximumOperations: 28_000)?.operations.count ?? 0 }
        }
        precondition(operations == changes, "one replace per toggle")
        diffAlone.append(seconds(diffTime) / Double(changes))
    }
    let patch = patchRuns.sorted { $0.seconds < $1.seconds }[rounds / 2]
    let value = valueRuns.sorted { $0.seconds < $1.seconds }[rounds / 2]
    let oneValue = oneValueRuns.sorted { $0.seconds < $1.seconds }[rounds / 2]
    let baseline = encodeOnce.sorted()[rounds / 2]
    let diff = diffAlone.sorted()[rounds / 2]
    print("(p) one toggle in a \(items)-item TodoList (value \(patch.value) bytes), \(subscribers) subscribers:")
    print("    bytes per subscriber per change: patches \(Int(patch.bytes.rounded())), values \(Int(value.bytes.rounded())) (\(fixed(100 * patch.bytes / Double(max(patch.value, 1))))% of the value)")
    print("    server time per change: \(subscribers) patch subscribers \(micro(patch.seconds)), \(subscribers) value subscribers \(micro(value.seconds)), 1 value subscriber \(micro(oneValue.seconds))")
    print("    baseline, encode the full value once + enqueue: \(micro(baseline)); the diff of one toggle alone: \(micro(diff))")
}

private func benchmarkClearDone(items: Int, subscribers: Int, rounds: Int, queue: DispatchQueue) {
    func once(patches: Bool) -> Double {
        let bench = InProcessServer(queue: queue)
        let writer = bench.connect()
        createList(bench, on: writer.id, items: items, done: true)
        let readers = (0..<subscribers).map { _ in bench.connect() }
        for reader in readers {
            bench.request(["jsonrpc": "2.0", "id": 2, "method": "vm.subscribe", "params": ["instance": "todo", "outputs": ["items"], "patches": .bool(patches)]], on: reader.id)
            reader.sink.reset()
        }
        let frame = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"todo","input":"clearDone"}}"#.utf8)
        let time = clock.measure { bench.feed(frame, on: writer.id) }
        precondition(readers.allSatisfy { $0.sink.messages == 1 }, "clearDone did not reach every subscriber once")
        return seconds(time)
    }
    var patchTimes: [Double] = [], valueTimes: [Double] = [], diffTimes: [Double] = [], boundedTimes: [Double] = []
    let full: JSONValue = .array((0..<items).map { ["id": .integer(Int64($0 + 1)), "title": .string("Item number \($0) of the benchmark list"), "done": true] })
    for _ in 0..<rounds {
        patchTimes.append(once(patches: true))
        valueTimes.append(once(patches: false))
        var length = 0
        diffTimes.append(seconds(clock.measure { length = JSONPatch(from: full, to: []).operations.count }))
        precondition(length > 0)
        // What the server runs: bounded by the value's size ("[]": no operation can be shorter).
        var bounded: JSONPatch?
        boundedTimes.append(seconds(clock.measure { bounded = JSONPatch(from: full, to: [], maximumOperations: 2 / JSONPatch.minimumOperationBytes) }))
        precondition(bounded == nil)
    }
    let middle = rounds / 2
    print("(f) clearDone on \(items) done items, \(subscribers) subscribers (falls back to value):")
    print("    server time: patch subscribers \(micro(patchTimes.sorted()[middle])), value subscribers \(micro(valueTimes.sorted()[middle])); the unbounded diff alone \(micro(diffTimes.sorted()[middle])), the server's bounded attempt \(micro(boundedTimes.sorted()[middle]))")
}

private func micro(_ seconds: Double) -> String {
    "\(Int((seconds * 1e6).rounded())) µs"
}
