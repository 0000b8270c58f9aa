import Posix

/// Bounded waiting on conditions, never a fixed sleep: tests wait for what they need and give
/// up (returning false) at a deadline.
package enum Waiting {
    /// How long any test-support wait lasts unless its caller says otherwise: a read from a
    /// session or a socket, a condition, an in-process daemon's start and stop. Generous,
    /// because eight builds may share the machine's two cores; a passing test never waits it
    /// out.
    package static let defaultTimeout: Duration = .seconds(10)

    /// Re-checks `condition` every `interval` until it holds (true) or `timeout` passes (false).
    /// The pause between checks is a `poll` timeout, not a sleep.
    package static func until(
        timeout: Duration = defaultTimeout, interval: Duration = .milliseconds(2), _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = Deadline(after: timeout)
        while true {
            if try condition() { return true }
            if deadline.hasPassed { return false }
            pause(interval)
        }
    }

    /// ``until(timeout:interval:_:)`` for a condition that awaits (a session's reply); between
    /// checks it yields to other tasks.
    package static func asyncUntil(
        timeout: Duration = defaultTimeout, interval: Duration = .milliseconds(2), _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = Deadline(after: timeout)
        while true {
            if try await condition() { return true }
            if deadline.hasPassed { return false }
            pause(interval)
            await Task.yield()
        }
    }

    /// Blocks the calling thread for `duration` (a `poll` on a pipe nobody writes).
    package static func pause(_ duration: Duration) {
        _ = try? idlePipe.read.wait(for: .readable, timeout: duration)
    }

    private static let idlePipe: (read: FileDescriptor, write: FileDescriptor) = {
        do {
            return try FileDescriptor.pipe()
        } catch {
            fatalError("cannot create a pipe for timed waits: \(error)")
        }
    }()
}

/// A point on the monotonic clock after which waiting stops.
package struct Deadline: Sendable {
    package let nanoseconds: UInt64

    package init(after timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        nanoseconds = MonotonicClock.nanoseconds() &+ UInt64(max(0, seconds)) * 1_000_000_000
            &+ UInt64(max(0, attoseconds / 1_000_000_000))
    }

    package var hasPassed: Bool { MonotonicClock.nanoseconds() >= nanoseconds }

    /// What is left (zero once passed).
    package var remaining: Duration {
        let now = MonotonicClock.nanoseconds()
        return now >= nanoseconds ? .zero : .nanoseconds(Int64(nanoseconds - now))
    }
}
