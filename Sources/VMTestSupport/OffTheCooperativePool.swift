import Testing

/// Runs a test (or every test of a suite) with a task-executor preference for a
/// ``DedicatedThreadsExecutor``: its code and every `await` it resumes from run on threads
/// outside Swift's cooperative pool.
///
/// For tests that block a thread — waiting for a `vmd` or `vmctl` process, reading a socket
/// synchronously, polling a condition. On the cooperative pool (two threads on CI machines)
/// such tests held every thread for seconds at a time, and the async tests of the same run
/// waited that long to resume: three `VMClientSessionTests` that need a tenth of a second
/// alone ran out of their one-minute limits in CI. Off the pool, blocking tests queue behind
/// each other only.
package struct OffTheCooperativePool: SuiteTrait, TestTrait, TestScoping {
    /// One executor for all blocking tests. Four threads: more blocking tests at once than
    /// the two the pool gave them, bounded so that a run does not start every daemon at once.
    package static let executor = DedicatedThreadsExecutor(maximumThreads: 4)

    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope passes through; each test case gets the preference.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }
}

extension Trait where Self == OffTheCooperativePool {
    /// Runs the test on threads outside Swift's cooperative pool (``OffTheCooperativePool``).
    package static var offTheCooperativePool: Self { OffTheCooperativePool() }
}
