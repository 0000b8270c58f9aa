import Synchronization

/// Lines written by another thread (a daemon's log, a loop's callbacks), read by the test,
/// and a flag the writer raises when it is done.
package final class LineRecorder: Sendable {
    private let state = Mutex<(lines: [String], isFinished: Bool)>(([], false))

    package init() {}

    package func append(_ line: String) {
        state.withLock { $0.lines.append(line) }
    }

    /// Every line so far, oldest first.
    package var all: [String] { state.withLock { $0.lines } }

    /// Whether some line contains `text`.
    package func contains(_ text: String) -> Bool {
        state.withLock { $0.lines.contains { $0.contains(text) } }
    }

    /// The writer is done (see ``isFinished``).
    package func finish() {
        state.withLock { $0.isFinished = true }
    }

    /// Whether ``finish()`` was called.
    package var isFinished: Bool { state.withLock { $0.isFinished } }
}
