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

/// A counter and flag box that Sendable jobs and other threads can share.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

extension Array where Element == UInt8 {
    init(_ text: String) { self = Array(text.utf8) }
}
