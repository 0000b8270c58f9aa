import Posix
import Synchronization

/// Runs `loop` on the calling thread until `condition` holds or `timeout` passes; returns
/// whether the condition held. A timer bounds every wait, so it never hangs.
func runLoop(_ loop: EventLoop, timeout: Duration = .seconds(10), until condition: () -> Bool) throws -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(timeout.components.seconds) * 1_000_000_000
    let guardTimer = loop.schedule(atNanoseconds: deadline) {}
    defer { loop.cancel(guardTimer) }
    while !condition() {
        if MonotonicClock.nanoseconds() >= deadline { return false }
        try loop.runOnce()
    }
    return true
}

/// Runs `work` on a loop's thread while the loop waits: another thread writes a byte, after
/// `delay`, to a pipe the loop watches, which wakes it from whatever wait it is in.
struct Poke {
    private let writer: PosixThread
    private let registration: IORegistration
    private let loop: EventLoop

    init(_ loop: EventLoop, after delay: Duration, _ work: @escaping () -> Void) throws {
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        registration = try loop.register(pipe.read, interest: .readable) { _ in
            var byte: UInt8 = 0
            _ = withUnsafeMutableBytes(of: &byte) { try? pipe.read.read(into: $0) }
            work()
        }
        let writeEnd = pipe.write
        writer = try PosixThread.spawn {
            CurrentProcess.sleep(for: delay)
            _ = try? writeEnd.writeAll([1])
        }
        self.loop = loop
    }

    /// Waits for the writing thread and stops watching the pipe.
    func finish() {
        writer.join()
        loop.deregister(registration)
    }
}

/// A counter and flag box that Sendable jobs and other threads can share.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

extension Array where Element == UInt8 {
    init(_ text: String) { self = Array(text.utf8) }
}
