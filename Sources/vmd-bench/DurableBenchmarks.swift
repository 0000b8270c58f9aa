// Durable instances (PROTOCOL.md §6), the built `vmd` over its socket:
//
// D1  pipelined vm.send requests (each answered) to a durable Counter against the same to a
//     non-durable Counter of the same daemon, in alternating rounds: the group commit's cost
//     as a ratio (every turn's saved counts reach the disk with one write and one
//     fdatasync before that turn's replies). Median of 3 rounds each.
// D1b the same over 8 connections at once, each to its own Counter: one sync per loop turn
//     covers every connection's changes of that turn (the group commit's point).
// D2  1,000 durable Counters (each incremented once), the daemon stopped with SIGTERM, then
//     a new vmd on the same state directory: time from its spawn until it has answered
//     vm.get on the last restored instance, against the same for an empty state directory
//     (the daemon's start alone) measured in the same run.

import JSONCore
import Posix

func runDurableBenchmarks() {
    do {
        try DurableBench().run()
    } catch {
        print("durable benchmarks failed: \(error)")
    }
}

private final class DurableBench {
    let directory: String
    var stateDirectory: String { directory + "/state" }

    init() throws {
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdd-XXXXXX")
    }

    func run() throws {
        let vmdPath = try BenchDaemon.besideBench()
        if !vmdPath.contains("/release/") {
            print("note: \(vmdPath) is not a release build; run `swift build -c release` and the release vmd-bench")
        }
        defer { removeEverything() }

        // D1
        var daemon = try start(vmdPath)
        let setup = try LineClient(path: daemon.socketPath)
        _ = try setup.call(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","id":"durable","durable":true}}"#)
        _ = try setup.call(#"{"jsonrpc":"2.0","id":2,"method":"vm.create","params":{"type":"Counter","id":"plain"}}"#)
        for index in 0..<8 {
            _ = try setup.call(#"{"jsonrpc":"2.0","id":3,"method":"vm.create","params":{"type":"Counter","id":"durable\#(index)","durable":true}}"#)
            _ = try setup.call(#"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Counter","id":"plain\#(index)"}}"#)
        }
        setup.close()
        let sends = 100_000
        _ = try Self.pipelinedSends(daemon.socketPath, instance: "plain", count: 10_000)
        _ = try Self.pipelinedSends(daemon.socketPath, instance: "durable", count: 10_000)
        var plainRates: [Double] = []
        var durableRates: [Double] = []
        for _ in 0..<3 {
            plainRates.append(try Self.pipelinedSends(daemon.socketPath, instance: "plain", count: sends))
            durableRates.append(try Self.pipelinedSends(daemon.socketPath, instance: "durable", count: sends))
        }
        let plain = middleValue(plainRates)
        let durable = middleValue(durableRates)
        print("D1 pipelined vm.send requests, each answered: durable Counter \(groupedRate(durable))/s;"
              + " non-durable \(groupedRate(plain))/s; ratio \(twoDecimals(durable / plain))x  [aim: ≥ 0.5x]")
        var plainSpread: [Double] = []
        var durableSpread: [Double] = []
        for _ in 0..<3 {
            plainSpread.append(try concurrentSends(daemon.socketPath, prefix: "plain", count: sends / 8))
            durableSpread.append(try concurrentSends(daemon.socketPath, prefix: "durable", count: sends / 8))
        }
        let plainMany = middleValue(plainSpread)
        let durableMany = middleValue(durableSpread)
        print("D1b the same over 8 connections at once: durable \(groupedRate(durableMany))/s;"
              + " non-durable \(groupedRate(plainMany))/s; ratio \(twoDecimals(durableMany / plainMany))x")
        daemon.stopKeepingState()

        // D2: 1,000 durable instances, then timed starts with and without them.
        daemon = try start(vmdPath)
        let client = try LineClient(path: daemon.socketPath)
        var payload: [UInt8] = []
        for index in 0..<1000 {
            payload += Array(#"{"jsonrpc":"2.0","id":\#(2 * index + 1),"method":"vm.create","params":{"type":"Counter","id":"c\#(index)","durable":true}}"#.utf8) + [10]
            payload += Array(#"{"jsonrpc":"2.0","id":\#(2 * index + 2),"method":"vm.send","params":{"instance":"c\#(index)","input":"increment"}}"#.utf8) + [10]
        }
        try client.write(payload)
        try client.countLines(2000)
        client.close()
        daemon.stopKeepingState()
        var restoring: [Double] = []
        var empty: [Double] = []
        for _ in 0..<3 {
            restoring.append(try timedStart(vmdPath, stateDirectory: stateDirectory, lastInstance: "c999"))
            empty.append(try timedStart(vmdPath, stateDirectory: directory + "/empty-state", lastInstance: nil))
        }
        let restore = middleValue(restoring)
        let baseline = middleValue(empty)
        print("D2 1,000 durable Counters restored and answering \(fixed(restore * 1000)) ms after exec;"
              + " an empty start answers after \(fixed(baseline * 1000)) ms; ratio \(twoDecimals(restore / baseline))x  [aim: < 3 s]")
    }

    private func start(_ vmdPath: String) throws -> BenchDaemon {
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory, arguments: ["--state-dir", stateDirectory])
        try daemon.waitUntilListening()
        return daemon
    }

    /// `count` vm.send requests (with ids) written at once by a writer thread while this one
    /// counts the replies; requests per second until the last reply.
    private static func pipelinedSends(_ path: String, instance: String, count: Int) throws -> Double {
        let client = try LineClient(path: path)
        var payload: [UInt8] = []
        for index in 0..<count {
            payload += Array(#"{"jsonrpc":"2.0","id":\#(index),"method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8)
            payload.append(10)
        }
        let start = MonotonicClock.nanoseconds()
        let writer = try client.duplicateForWriting()
        let thread = try PosixThread.spawn { try? writer.writeAll(payload) }
        try client.countLines(count)
        let elapsed = MonotonicClock.nanoseconds() - start
        thread.join()
        client.close()
        return Double(count) / (Double(elapsed) / 1e9)
    }

    /// ``pipelinedSends(_:instance:count:)`` on 8 connections at once, connection `i` to the
    /// Counter `prefix` + `i`; requests per second over all of them until the last reply.
    private func concurrentSends(_ path: String, prefix: String, count: Int) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        let threads = try (0..<8).map { index in
            try PosixThread.spawn { _ = try? DurableBench.pipelinedSends(path, instance: prefix + String(index), count: count) }
        }
        for thread in threads { thread.join() }
        let elapsed = MonotonicClock.nanoseconds() - start
        return Double(8 * count) / (Double(elapsed) / 1e9)
    }

    /// Seconds from spawning vmd on `stateDirectory` until it answered `vm.get` on
    /// `lastInstance` (or `daemon.info` when `nil`).
    private func timedStart(_ vmdPath: String, stateDirectory: String, lastInstance: String?) throws -> Double {
        let start = MonotonicClock.nanoseconds()
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory, arguments: ["--state-dir", stateDirectory])
        defer { daemon.stopKeepingState() }
        let client = try daemon.connectWhenListening { try LineClient(path: $0) }
        let request = lastInstance.map { #"{"jsonrpc":"2.0","id":1,"method":"vm.get","params":{"instance":"\#($0)","output":"count"}}"# }
            ?? #"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#
        let reply = try client.call(request)
        let elapsed = MonotonicClock.nanoseconds() - start
        client.close()
        if lastInstance != nil, reply["result"]?["value"] != 1 { throw BenchFailure("restore failed: \(reply)") }
        return Double(elapsed) / 1e9
    }

    private func removeEverything() {
        for name in ["instances.vmdlog", "instances.set-aside"] {
            _ = try? FileSystem.remove(stateDirectory + "/" + name)
            _ = try? FileSystem.remove(directory + "/empty-state/" + name)
        }
        try? FileSystem.removeDirectory(stateDirectory)
        try? FileSystem.removeDirectory(directory + "/empty-state")
        _ = try? FileSystem.remove(directory + "/vmd.log")
        try? FileSystem.removeDirectory(directory)
    }
}

extension BenchDaemon {
    /// Stops the daemon with SIGTERM and waits, leaving its directory (the state in it) alone.
    fileprivate func stopKeepingState() {
        try? child.send(.terminate)
        _ = try? child.wait()
    }
}
