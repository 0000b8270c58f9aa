// The daemon end to end (workloads W1–W5 below): the built `vmd` (run the release build) driven over
// its Unix socket by a load client, against a raw Unix-socket line echo server (a bare epoll
// loop in a one-thread process of its own, as vmd is) measured in the same run. Figures are
// quoted as ratios to the echo.
//
// W1  round trip of vm.send (a request) → its vm.output and its reply, one connection; p50/p99.
// W2  one connection pipelining 200,000 vm.send notifications; notifications/s until a second
//     connection subscribed to the Counter sees the last count.
// W3  50 subscribers of one Counter, one writer; vm.output notifications delivered per second.
// W4  10,000 vm.create (pipelined): creates/s and RSS growth per instance (/proc/PID/status).
// W5  W1 again beside 1,000 idle connections.
//
// The load client uses blocking sockets with receive timeouts (a stuck daemon fails the run
// instead of hanging it) and reader threads where a workload needs to read while writing.

import JSONCore
import Posix
import Synchronization

func runDaemonBenchmarks() {
    do {
        try DaemonBench().run()
    } catch {
        print("daemon benchmarks failed: \(error)")
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private final class DaemonBench {
    let directory: String

    init() throws {
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdb-XXXXXX")
    }

    func run() throws {
        let vmdPath = try BenchDaemon.besideBench()
        if !vmdPath.contains("/release/") {
            print("note: \(vmdPath) is not a release build; run `swift build -c release` and the release vmd-bench")
        }
        _ = try? ResourceLimits.raiseOpenFileLimit()
        let echoPath = directory + "/echo.sock"
        // Declared first, so it runs last: the daemon's stop removes the folder only once the
        // echo's socket is gone too.
        defer { try? FileSystem.removeDirectory(directory) }
        let echo = try LineEchoServer.startProcess(path: echoPath)
        defer { echo.stop() }
        let daemon = try BenchDaemon(vmdPath: vmdPath, directory: directory, arguments: ["--max-connections", "8192"])
        defer { daemon.stop() }
        try daemon.waitUntilListening()

        // W1 and W5, in interleaved rounds so the echo and both daemon cases see the same
        // machine (other processes' load comes and goes on a shared 2-core VM).
        let echoClient = try LineClient(path: echoPath)
        let sender = try CounterSender(path: daemon.socketPath)
        _ = try echoRoundTrips(echoClient, count: 2000)
        _ = try sender.roundTrips(count: 2000)
        var echoSamples: [UInt64] = []
        var w1Samples: [UInt64] = []
        var w5Samples: [UInt64] = []
        for _ in 0..<4 {
            echoSamples += try echoRoundTrips(echoClient, count: 5000)
            w1Samples += try sender.roundTrips(count: 5000)
            var idle: [FileDescriptor] = []
            for _ in 0..<1000 { idle.append(try UnixSocket.connect(to: UnixSocketAddress(path: daemon.socketPath))) }
            _ = try sender.roundTrips(count: 500)  // the daemon has accepted them all by now
            w5Samples += try sender.roundTrips(count: 5000)
            for connection in idle { try? connection.close() }
            _ = try sender.roundTrips(count: 500)
        }
        echoClient.close()
        let echoRoundTrip = Percentiles(echoSamples)
        let w1 = Percentiles(w1Samples)
        let w5 = Percentiles(w5Samples)
        report("W1 vm.send → vm.output + reply", w1, against: echoRoundTrip, aim: "p50 within 1.3x of the echo")

        // W2 and W3: medians of alternating rounds.
        var echoRates: [Double] = []
        var w2Rates: [Double] = []
        var w3Rates: [Double] = []
        var overflows = 0
        for _ in 0..<3 {
            echoRates.append(try echoPipelinedRate(echoPath, lines: 200_000))
            w2Rates.append(try measurePipelinedSends(daemon.socketPath, count: 200_000))
            let fanOut = try measureFanOut(daemon.socketPath, subscribers: 50, sends: 20_000)
            w3Rates.append(fanOut.delivered)
            overflows += fanOut.overflows
        }
        let echoPipelined = middleValue(echoRates)
        let w2 = middleValue(w2Rates)
        let w3 = middleValue(w3Rates)
        print("W2 pipelined vm.send notifications: \(groupedRate(w2))/s until the last count arrived;"
              + " echo \(groupedRate(echoPipelined)) lines/s; ratio \(twoDecimals(w2 / echoPipelined)) of the echo  [aim: ≥ 500,000/s]")
        print("W3 50 subscribers, one writer: \(groupedRate(w3))/s vm.output delivered"
              + " (\(overflows) overflow notices in 3 rounds); ratio \(twoDecimals(w3 / echoPipelined)) of the echo's"
              + " pipelined lines/s  [aim: ≥ 2,000,000/s]")

        // W4
        let w4 = try measureCreates(daemon.socketPath, count: 10_000, pid: daemon.pid)
        print("W4 10,000 vm.create: \(groupedRate(w4.perSecond)) creates/s; RSS +\(w4.bytesPerInstance) bytes per Counter"
              + " (\(w4.rssBefore / 1024) → \(w4.rssAfter / 1024) KiB)  [aim: < 4 KiB per Counter]")

        report("W5 W1 beside 1,000 idle connections", w5, against: echoRoundTrip, aim: "within 10% of W1")
        print("W5 p50 / W1 p50: \(twoDecimals(Double(w5.p50) / Double(w1.p50)))x;"
              + " p99 / p99: \(twoDecimals(Double(w5.p99) / Double(w1.p99)))x")
        sender.close()
    }

    // MARK: Workloads

    private func measurePipelinedSends(_ path: String, count: Int) throws -> Double {
        let owner = try LineClient(path: path)
        let created = try owner.call(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"}}"#)
        guard let instance = created["result"]?["instance"]?.stringValue else { throw BenchFailure("vm.create failed: \(created)") }
        let watcher = try LineClient(path: path)
        _ = try watcher.call(#"{"jsonrpc":"2.0","id":1,"method":"vm.subscribe","params":{"instance":"\#(instance)","replay":false}}"#)
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8) + [10]
        var payload: [UInt8] = []
        payload.reserveCapacity(line.count * count)
        for _ in 0..<count { payload += line }
        let writer = try LineClient(path: path)
        let start = MonotonicClock.nanoseconds()
        try writer.write(payload)
        try watcher.waitForValue(count)
        let elapsed = MonotonicClock.nanoseconds() - start
        for client in [owner, watcher, writer] { client.close() }
        return Double(count) / (Double(elapsed) / 1e9)
    }

    private func measureFanOut(_ path: String, subscribers: Int, sends: Int) throws -> (delivered: Double, overflows: Int) {
        let owner = try LineClient(path: path)
        let created = try owner.call(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"}}"#)
        guard let instance = created["result"]?["instance"]?.stringValue else { throw BenchFailure("vm.create failed: \(created)") }
        var watchers: [LineClient] = []
        for _ in 0..<subscribers {
            let watcher = try LineClient(path: path)
            _ = try watcher.call(#"{"jsonrpc":"2.0","id":1,"method":"vm.subscribe","params":{"instance":"\#(instance)","replay":false}}"#)
            watchers.append(watcher)
        }
        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(instance)","input":"increment"}}"#.utf8) + [10]
        var payload: [UInt8] = []
        for _ in 0..<sends { payload += line }
        let tally = FanOutTally()
        let readers = try watchers.map { watcher in
            let reader = LineClientReader(watcher)
            return try PosixThread.spawn {
                let (lines, overflows) = (try? reader.client.countUntilValue(sends)) ?? (0, 0)
                tally.add(lines: lines, overflows: overflows)
            }
        }
        let start = MonotonicClock.nanoseconds()
        try owner.write(payload)
        for reader in readers { reader.join() }
        let elapsed = MonotonicClock.nanoseconds() - start
        owner.close()
        for watcher in watchers { watcher.close() }
        let (lines, overflows) = tally.totals
        return (Double(lines) / (Double(elapsed) / 1e9), overflows)
    }

    private func measureCreates(_ path: String, count: Int, pid: Int32) throws
        -> (perSecond: Double, bytesPerInstance: Int, rssBefore: Int, rssAfter: Int)
    {
        let client = try LineClient(path: path)
        _ = try client.call(#"{"jsonrpc":"2.0","id":0,"method":"daemon.info"}"#)
        let before = try BenchDaemon.residentBytes(pid: pid)
        var payload: [UInt8] = []
        for index in 0..<count {
            payload += Array(#"{"jsonrpc":"2.0","id":\#(index + 1),"method":"vm.create","params":{"type":"Counter"}}"#.utf8) + [10]
        }
        let start = MonotonicClock.nanoseconds()
        let writer = try client.duplicateForWriting()
        let thread = try PosixThread.spawn { try? writer.writeAll(payload) }
        try client.countLines(count)
        let elapsed = MonotonicClock.nanoseconds() - start
        thread.join()
        let after = try BenchDaemon.residentBytes(pid: pid)
        client.close()
        return (Double(count) / (Double(elapsed) / 1e9), max(0, after - before) / count, before, after)
    }

    // MARK: Helpers

    private func report(_ name: String, _ figures: Percentiles, against echo: Percentiles, aim: String) {
        print("\(name): p50 \(microsText(figures.p50)) µs, p99 \(microsText(figures.p99)) µs;"
              + " echo p50 \(microsText(echo.p50)) µs, p99 \(microsText(echo.p99)) µs;"
              + " ratio p50 \(twoDecimals(Double(figures.p50) / Double(echo.p50)))x, p99 \(twoDecimals(Double(figures.p99) / Double(echo.p99)))x"
              + "  [aim: \(aim)]")
    }

}

/// The echo baseline of a vm.send round trip: `count` times, one vm.send-sized request line
/// written to the echo server and its echo read; each time in nanoseconds.
func echoRoundTrips(_ client: LineClient, count: Int) throws -> [UInt64] {
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

/// The echo baseline of pipelined vm.send notifications: `lines` vm.send-sized lines written
/// at once by a writer thread while this one counts their echoes; lines per second.
func echoPipelinedRate(_ path: String, lines: Int) throws -> Double {
    let client = try LineClient(path: path)
    defer { client.close() }
    let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"counter-2","input":"increment"}}"#.utf8) + [10]
    var payload: [UInt8] = []
    payload.reserveCapacity(line.count * lines)
    for _ in 0..<lines { payload += line }
    let writer = try client.duplicateForWriting()
    let start = MonotonicClock.nanoseconds()
    let thread = try PosixThread.spawn { try? writer.writeAll(payload) }
    try client.countLines(lines)
    let elapsed = MonotonicClock.nanoseconds() - start
    thread.join()
    return Double(lines) / (Double(elapsed) / 1e9)
}

/// W1's and S2's client: one connection, one connection-scoped Counter it is subscribed to; a
/// round trip is a vm.send request until both its vm.output and its reply have arrived.
final class CounterSender {
    let client: LineClient
    let instance: String
    private var nextID = 1

    init(path: String) throws {
        client = try LineClient(path: path)
        let created = try client.call(#"{"jsonrpc":"2.0","id":0,"method":"vm.create","params":{"type":"Counter","scope":"connection","subscribe":{}}}"#)
        guard let instance = created["result"]?["instance"]?.stringValue else { throw BenchFailure("vm.create failed: \(created)") }
        self.instance = instance
        _ = try client.readLine()  // the replayed count
    }

    func roundTrips(count: Int) throws -> [UInt64] {
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

    func close() { client.close() }
}

/// Sorted latency samples.
struct Percentiles {
    let sorted: [UInt64]
    init(_ samples: [UInt64]) { sorted = samples.sorted() }
    func at(_ fraction: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    var p50: UInt64 { at(0.50) }
    var p90: UInt64 { at(0.90) }
    var p99: UInt64 { at(0.99) }
}

/// Totals from the fan-out reader threads.
private final class FanOutTally: Sendable {
    private let state = Mutex<(lines: Int, overflows: Int)>((0, 0))
    func add(lines: Int, overflows: Int) { state.withLock { $0.lines += lines; $0.overflows += overflows } }
    var totals: (Int, Int) { state.withLock { ($0.lines, $0.overflows) } }
}

/// Hands one client to one reader thread, which is then its only user.
private struct LineClientReader: @unchecked Sendable {
    // Safe: created on the main thread and used only by the one reader thread it is passed to;
    // the main thread touches the client again only after joining that thread.
    let client: LineClient
    init(_ client: LineClient) { self.client = client }
}

/// A blocking line client with a receive timeout (a stuck daemon fails the run, never hangs it).
final class LineClient {
    let socket: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    func write(_ bytes: [UInt8]) throws { try socket.writeAll(bytes) }

    /// A second descriptor for the same connection, so a thread can write while this one reads.
    func duplicateForWriting() throws -> WriteHandle { WriteHandle(socket: socket) }

    func close() { try? socket.close() }

    /// Sends one request line and returns the first line that is a response (has an "id").
    func call(_ request: String) throws -> JSONValue {
        try write(Array(request.utf8) + [10])
        while true {
            let line = try readLine()
            let message = try JSONValue(parsing: line)
            if message["id"] != nil { return message }
        }
    }

    func readLine() throws -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
                return line
            }
            try fill()
        }
    }

    /// Reads until `count` newlines have arrived.
    func countLines(_ count: Int) throws {
        var seen = buffer[start...].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        buffer.removeAll(keepingCapacity: true)
        start = 0
        while seen < count {
            let read = try readChunk()
            seen += chunk[0..<read].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
    }

    /// Reads until a line carries `"value":target` (a Counter's count reaching the target).
    func waitForValue(_ target: Int) throws { _ = try countUntilValue(target) }

    /// Lines read until `"value":target` (not followed by another digit) was seen, and how many
    /// were vm.overflow notices.
    func countUntilValue(_ target: Int) throws -> (lines: Int, overflows: Int) {
        let needle = Array(#""value":\#(target)"#.utf8)
        let overflowNeedle = Array(#""vm.overflow""#.utf8)
        var lines = 0
        var overflows = 0
        var tail: [UInt8] = []
        while true {
            let read = try readChunk()
            var window = tail
            window.append(contentsOf: chunk[0..<read])
            lines += chunk[0..<read].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            overflows += occurrences(of: overflowNeedle, in: window, from: tail.count)
            if containsNumber(needle, in: window) { return (lines, overflows) }
            tail = Array(window.suffix(needle.count + 16))
        }
    }

    private func occurrences(of needle: [UInt8], in haystack: [UInt8], from minimumEnd: Int) -> Int {
        guard haystack.count >= needle.count, let first = needle.first else { return 0 }
        var found = 0
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, index + needle.count > minimumEnd,
               haystack[index..<(index + needle.count)].elementsEqual(needle)
            {
                found += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// Whether `needle` (ending in digits) occurs in `haystack` with no digit right after it.
    private func containsNumber(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard haystack.count > needle.count, let first = needle.first else { return false }
        var index = 0
        while index < haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                let next = haystack[index + needle.count]
                if next < UInt8(ascii: "0") || next > UInt8(ascii: "9") { return true }
            }
            index += 1
        }
        return false
    }

    private func fill() throws {
        let read = try readChunk()
        buffer.append(contentsOf: chunk[0..<read])
    }

    private func readChunk() throws -> Int {
        let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
        switch result {
        case .bytes(let count): return count
        case .endOfFile: throw BenchFailure("the daemon closed the connection")
        case .wouldBlock: throw BenchFailure("no reply within 30 s")
        }
    }
}

/// The writing side of a LineClient's socket, usable from a writer thread.
struct WriteHandle: Sendable {
    let socket: FileDescriptor
    func writeAll(_ bytes: [UInt8]) throws { try socket.writeAll(bytes) }
}

/// The baseline: a raw Unix-socket line echo server on one epoll loop (Posix's EventLoop),
/// writing back exactly what it reads, with the same nonblocking discipline as the daemon.
///
/// ``startProcess(path:)`` runs it like vmd runs: a process of its own with one thread
/// (`vmd-bench echo-server PATH`, see ``serve(path:)``), so a round trip to it crosses the same
/// process switches as one to vmd. ``start(path:)`` runs it on a thread of this process, for
/// ShardingBenchmarks.swift, whose hops are between threads of one process.
final class LineEchoServer: Sendable {
    private let thread: EventLoopThread?
    private let child: ChildProcess?
    private let path: String

    private init(thread: EventLoopThread?, child: ChildProcess?, path: String) {
        self.thread = thread
        self.child = child
        self.path = path
    }

    /// The echo on a loop thread of this process.
    static func start(path: String) throws -> LineEchoServer {
        let listener = try UnixListener.bind(to: UnixSocketAddress(path: path))
        let thread = try EventLoopThread.start(setup: { loop in
            let state = EchoState(loop: loop, listener: listener)
            _ = try loop.register(listener.descriptor, interest: .readable) { _ in state.acceptAll() }
        })
        // Connections are accepted by the loop; connect succeeds as soon as bind+listen did.
        return LineEchoServer(thread: thread, child: nil, path: path)
    }

    /// The echo in a child process of its own (this executable, `echo-server PATH`); returns once
    /// it accepts connections.
    static func startProcess(path: String) throws -> LineEchoServer {
        let child = try ChildProcess.spawn(
            try BenchDaemon.ownExecutable(), arguments: ["echo-server", path],
            standardInput: "/dev/null", outputPath: "/dev/null")
        let server = LineEchoServer(thread: nil, child: child, path: path)
        let start = MonotonicClock.nanoseconds()
        while MonotonicClock.nanoseconds() - start < 20_000_000_000 {
            if let probe = try? UnixSocket.connect(to: UnixSocketAddress(path: path)) {
                try? probe.close()
                return server
            }
            if let ended = try child.poll() { throw BenchFailure("the echo server \(ended) before listening") }
            CurrentProcess.sleep(for: .milliseconds(5))
        }
        server.stop()
        throw BenchFailure("the echo server did not listen within 20 s")
    }

    /// The process id of the echo's own process (``startProcess(path:)``), or nil.
    var processID: Int32? { child?.pid }

    func stop() {
        thread?.stopAndJoin()
        if let child {
            try? child.send(.terminate)
            _ = try? child.wait()
        }
        _ = try? FileSystem.remove(path)
    }

    /// The child side of ``startProcess(path:)``: serves `path` on the calling thread until
    /// SIGTERM.
    static func serve(path: String) throws {
        let loop = try EventLoop()
        let listener = try UnixListener.bind(to: UnixSocketAddress(path: path))
        let state = EchoState(loop: loop, listener: listener)
        _ = try loop.register(listener.descriptor, interest: .readable) { _ in state.acceptAll() }
        try loop.onSignal(.terminate) { loop.stop() }
        try loop.run()
    }
}

/// The echo loop's state (loop thread only).
private final class EchoState {
    let loop: EventLoop
    let listener: UnixListener
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var pending: [Int32: [UInt8]] = [:]
    var keep: [Int32: (FileDescriptor, IORegistration)] = [:]

    init(loop: EventLoop, listener: UnixListener) {
        self.loop = loop
        self.listener = listener
    }

    func acceptAll() {
        while let accepted = try? listener.accept() {
            let fd = accepted.rawValue
            guard let registration = try? loop.register(accepted, interest: .readable, handler: { [unowned self] events in
                self.service(fd, events)
            }) else { continue }
            keep[fd] = (accepted, registration)
        }
    }

    private func service(_ fd: Int32, _ events: IOEvents) {
        guard let (descriptor, registration) = keep[fd] else { return }
        if events.contains(.writable), var queued = pending[fd] {
            if !send(&queued, descriptor) { return drop(fd) }
            pending[fd] = queued.isEmpty ? nil : queued
            if queued.isEmpty { try? loop.modify(registration, interest: .readable) }
        }
        guard pending[fd] == nil, !events.isDisjoint(with: [.readable, .hangup]) else { return }
        let result = buffer.withUnsafeMutableBytes { try? descriptor.read(into: $0) }
        switch result {
        case .bytes(let count)?:
            var out = Array(buffer[0..<count])
            if !send(&out, descriptor) { return drop(fd) }
            if !out.isEmpty {
                pending[fd] = out
                try? loop.modify(registration, interest: .writable)
            }
        case .wouldBlock?: return
        case .endOfFile?, nil: drop(fd)
        }
    }

    /// Sends what the socket takes; leaves the rest in `bytes`. False when the peer is gone.
    private func send(_ bytes: inout [UInt8], _ descriptor: FileDescriptor) -> Bool {
        while !bytes.isEmpty {
            guard let result = bytes.withUnsafeBytes({ try? descriptor.send($0) }) else { return false }
            switch result {
            case .bytes(let count): bytes.removeFirst(count)
            case .wouldBlock: return true
            }
        }
        return true
    }

    private func drop(_ fd: Int32) {
        guard let (descriptor, registration) = keep.removeValue(forKey: fd) else { return }
        loop.deregister(registration)
        try? descriptor.close()
        pending[fd] = nil
    }
}
