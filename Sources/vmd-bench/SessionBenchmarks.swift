// Sessions (Performance.md, "Benchmarks"): what a detached session costs the daemon. The built `vmd` (run the
// release build) is started twice in the same run, each time measured by its RSS
// (/proc/PID/status) before and after 1,000 clients each made one connection-scoped Counter
// with one subscription:
//
// baseline  the 1,000 connections stay open (today's cost of a connected client's state);
// released  (the noise floor) each client closes without a session: everything is released;
// detached  each client first calls session.open, and its connection closes before the next
//           client connects (so connection memory is reused, not counted).
// Then every Counter is incremented once: an attached client's socket gets the vm.output (it
// does not read it), a detached session holds it in the daemon.
//
// Each RSS is the lowest of 12 s of samples once the daemon is idle (it trims freed heap then).
// Quoted as bytes per session, and detached as a ratio of the baseline.

import JSONCore
import Posix

func runSessionBenchmarks() {
    do {
        try SessionBench().run()
    } catch {
        print("session benchmarks failed: \(error)")
    }
}

private final class SessionBench {
    let sessions = 1000

    func run() throws {
        let vmdPath = try BenchDaemon.besideBench()
        if !vmdPath.contains("/release/") {
            print("note: \(vmdPath) is not a release build; run `swift build -c release` and the release vmd-bench")
        }
        _ = try? ResourceLimits.raiseOpenFileLimit()
        let released = try measure(vmdPath, mode: .released)
        let attached = try measure(vmdPath, mode: .attached)
        let detached = try measure(vmdPath, mode: .detached)
        print("S0 \(sessions) clients that close without a session (everything released): +\(released / sessions) bytes each (RSS; the noise floor)")
        print("S1 \(sessions) attached connections, each a Counter + subscription + 1 unread vm.output: +\(attached / sessions) bytes each (RSS)")
        print("S2 \(sessions) detached sessions, each a Counter + subscription + 1 queued vm.output:"
              + " +\(detached / sessions) bytes each (RSS); ratio \(Self.ratio(Double(detached) / Double(max(1, attached))))"
              + " of S1  [aim: ≤ 1.0x: a detached session keeps the state, not the connection]")
    }

    enum Mode { case released, attached, detached }

    /// RSS growth of a fresh vmd over `sessions` clients.
    private func measure(_ vmdPath: String, mode: Mode) throws -> Int {
        let detach = mode == .detached
        let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdb-XXXXXX")
        let daemon = try BenchDaemon(
            vmdPath: vmdPath, directory: directory,
            arguments: ["--max-connections", "8192", "--max-detached-sessions", "\(sessions)", "--session-grace-ms", "600000"])
        defer { daemon.stop() }
        let socketPath = daemon.socketPath
        let control = try daemon.connectWhenListening { try SessionBenchClient(path: $0) }
        defer { control.close() }
        // Warm up: the code paths and allocator arenas the measured phase uses.
        for round in 0..<20 {
            let warm = try SessionBenchClient(path: socketPath)
            if detach { _ = try warm.call(1, "session.open") }
            _ = try warm.call(2, "vm.create", #"{"type":"Counter","scope":"connection","subscribe":{}}"#)
            _ = try warm.call(3, "session.close")
            warm.close()
            _ = try control.call(100 + round, "vm.list")
        }
        try Self.settle(control, connections: 1)
        let before = try Self.quietResidentBytes(daemon.pid)

        var clients: [SessionBenchClient] = []
        var instances: [String] = []
        for _ in 0..<sessions {
            let client = try SessionBenchClient(path: socketPath)
            if detach { _ = try client.call(1, "session.open") }
            let created = try client.call(2, "vm.create", #"{"type":"Counter","scope":"connection","subscribe":{}}"#)
            guard let instance = created["result"]?["instance"]?.stringValue else {
                throw SessionBenchFailure("vm.create failed: \(created)")
            }
            instances.append(instance)
            // Detached: the connection goes at once, so the next client's connection reuses
            // its memory and what accumulates is the detached state alone.
            if mode == .attached { clients.append(client) } else { client.close() }
        }
        try Self.settle(control, connections: mode == .attached ? 1 + sessions : 1)
        // One value per Counter: written to the socket of an attached client (which does not
        // read it), queued in the daemon for a detached session.
        for instance in instances where mode != .released {
            try control.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#)
        }
        _ = try control.call(10_000, "vm.list")
        let after = try Self.quietResidentBytes(daemon.pid)
        for client in clients { client.close() }
        return max(0, after - before)
    }

    // MARK: Helpers

    /// Waits until `daemon.info` counts `connections` (closes are noticed asynchronously).
    private static func settle(_ control: SessionBenchClient, connections: Int) throws {
        for attempt in 0..<2000 {
            let info = try control.call(1_000_000 + attempt, "daemon.info")
            if info["result"]?["connections"]?.intValue == connections { return }
            CurrentProcess.sleep(for: .milliseconds(5))
        }
        throw SessionBenchFailure("the daemon still counts other connections after 10 s")
    }

    /// The lowest RSS sampled twice a second for 12 s: the daemon gives freed heap back once
    /// it has been idle a while (HeapTrimmer.swift), so memory of closed connections is not
    /// counted as the sessions'.
    private static func quietResidentBytes(_ pid: Int32) throws -> Int {
        var lowest = Int.max
        for _ in 0..<24 {
            lowest = min(lowest, try BenchDaemon.residentBytes(pid: pid))
            CurrentProcess.sleep(for: .milliseconds(500))
        }
        return lowest
    }

    private static func ratio(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
