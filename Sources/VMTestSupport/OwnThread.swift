import Foundation

/// Runs blocking `work` (a process wait, a synchronous socket loop) on a dedicated `Thread` and
/// awaits its result.
///
/// Swift's cooperative pool has one thread per core (two on CI machines); a test that blocks
/// one of them for seconds starves every other test's async work in the same run, so blocking
/// work goes to a thread of its own and the test only awaits it.
package func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
