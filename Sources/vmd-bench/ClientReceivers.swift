// The Swift receivers of the client receive benchmark (ClientReceiveBenchmarks.swift), each run
// as `vmd-bench client-receiver raw|vmclient SOCKET INSTANCE SUBSCRIPTIONS NOTIFICATIONS READY`:
// subscribe SUBSCRIPTIONS times to INSTANCE's `count` (no replay), create the file READY, take
// NOTIFICATIONS vm.output notifications, and print the nanoseconds from the first to the last
// and the process's CPU nanoseconds (all threads) over the same span.

#if canImport(Glibc)
import Glibc
#endif
import Posix
import Synchronization
import VMClient
import VMProtocol

/// Runs one receiver; returns the process's exit status.
func runClientReceiver(_ arguments: [String]) -> Int32 {
    guard arguments.count == 6, let subscriptions = Int(arguments[3]), let notifications = Int(arguments[4]),
          subscriptions > 0, notifications >= subscriptions else {
        print("usage: vmd-bench client-receiver raw|vmclient SOCKET INSTANCE SUBSCRIPTIONS NOTIFICATIONS READY")
        return 2
    }
    let (socket, instance, ready) = (arguments[1], arguments[2], arguments[5])
    do {
        let nanoseconds: ReceiverSpan
        switch arguments[0] {
        case "raw":
            nanoseconds = try RawReceiver.receive(socket: socket, instance: instance, subscriptions: subscriptions,
                                                  notifications: notifications, ready: ready)
        case "vmclient":
            nanoseconds = try VMClientReceiver.receive(socket: socket, instance: instance, subscriptions: subscriptions,
                                                       notifications: notifications, ready: ready)
        default:
            print("unknown receiver \(arguments[0])")
            return 2
        }
        print("\(nanoseconds.wall) \(nanoseconds.cpu)")
        return 0
    } catch {
        print("receiver failed: \(error)")
        return 1
    }
}

/// Wall and CPU nanoseconds from the first notification to the last.
private struct ReceiverSpan: Sendable {
    var wall: UInt64
    var cpu: UInt64

    /// Starts now.
    static func start() -> ReceiverSpan { ReceiverSpan(wall: MonotonicClock.nanoseconds(), cpu: processCPUNanoseconds()) }

    /// From `self` to now.
    func ended() -> ReceiverSpan {
        ReceiverSpan(wall: MonotonicClock.nanoseconds() - wall, cpu: Self.processCPUNanoseconds() - cpu)
    }

    /// This process's CPU time so far, all threads.
    static func processCPUNanoseconds() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Creates the empty file that tells the benchmark the receiver is subscribed.
private func announceReady(_ path: String) throws {
    try FileDescriptor.open(path, [.writeOnly, .create, .truncate]).close()
}

/// The floor: a blocking read of 256 KiB at a time, counting newlines.
private enum RawReceiver {
    static func receive(socket path: String, instance: String, subscriptions: Int, notifications: Int, ready: String) throws -> ReceiverSpan {
        let socket = try BenchDaemon.connectClient(to: path)
        defer { try? socket.close() }
        let subscribe = #"{"jsonrpc":"2.0","id":1,"method":"vm.subscribe","params":{"instance":"\#(instance)","outputs":["count"],"replay":false}}"#
        for _ in 0..<subscriptions {
            try socket.writeAll(Array(subscribe.utf8) + [10])
            let reply = try ReceiveBenchLine.read(from: socket)
            guard reply.contains(#""result""#) else { throw BenchFailure("vm.subscribe failed: \(reply)") }
        }
        try announceReady(ready)
        var chunk = [UInt8](repeating: 0, count: 262_144)
        var lines = 0
        var first: ReceiverSpan? = nil
        while lines < notifications {
            let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard case .bytes(let count) = result else { throw BenchFailure("connection ended after \(lines) lines") }
            if first == nil { first = .start() }
            for byte in chunk[0..<count] where byte == 10 { lines += 1 }
        }
        return (first ?? .start()).ended()
    }
}

/// VMClient as its README teaches it: subscribe, then iterate each subscription.
private enum VMClientReceiver {
    static func receive(socket: String, instance: String, subscriptions: Int, notifications: Int, ready: String) throws -> ReceiverSpan {
        let finished = try FileDescriptor.pipe()
        let outcome = ReceiverOutcome()
        Task.detached {
            let result: Result<ReceiverSpan, any Error>
            do {
                result = .success(try await receive(socket: socket, instance: instance, subscriptions: subscriptions,
                                                    notifications: notifications, ready: ready))
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            try? finished.write.writeAll([1])
        }
        _ = try finished.read.wait(for: .readable, timeout: .seconds(300))
        guard let result = outcome.result.withLock({ $0 }) else { throw BenchFailure("VMClient receiver did not finish in 300 s") }
        return try result.get()
    }

    private static func receive(socket: String, instance: String, subscriptions: Int, notifications: Int, ready: String) async throws -> ReceiverSpan {
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        var iterators: [VMSubscription.AsyncIterator] = []
        for _ in 0..<subscriptions {
            let subscription = try await client.subscribe(instance: instance, options: SubscribeOptions(outputs: ["count"], replay: false))
            iterators.append(subscription.makeAsyncIterator())
        }
        try announceReady(ready)
        var first: ReceiverSpan? = nil
        for _ in 0..<(notifications / subscriptions) {
            for index in iterators.indices {
                // In place, as `for await` keeps its iterator: a copy taken out and written
                // back would hold a second reference to the iterator's batch.
                guard case .output? = try await iterators[index].next() else { throw BenchFailure("subscription \(index) ended early") }
                if first == nil { first = .start() }
            }
        }
        return (first ?? .start()).ended()
    }
}

/// What the receiving task hands back to the waiting thread.
private final class ReceiverOutcome: Sendable {
    let result = Mutex<Result<ReceiverSpan, any Error>?>(nil)
}

/// One reply line read byte by byte (only before any output flows).
enum ReceiveBenchLine {
    static func read(from socket: FileDescriptor) throws -> String {
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        while true {
            let result = try byte.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard case .bytes = result else { throw BenchFailure("connection ended while reading a reply") }
            if byte[0] == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte[0])
        }
    }
}
