import JSONCore
import VMProtocol

/// A `vm.execute` started with ``VMClient/startExecute(instance:action:value:timeoutMs:resetTimeoutOnProgress:)``:
/// its progress as an `AsyncSequence`, then its value.
///
/// ```swift
/// let upload = client.startExecute(instance: list, action: "send")
/// for await step in upload.progress { print(step.fraction ?? 0) }   // ends with the reply
/// let receipt = try await upload.value
/// ```
///
/// Every `vm.progress` arrives before the reply (PROTOCOL.md O12), so ``progress`` ends when
/// the execution has its answer. It keeps at most ``progressBuffer`` reports a slow reader has
/// not taken yet, dropping the oldest (progress is for display: the newest matters).
public struct VMExecution: Sendable {
    /// How many unread reports ``progress`` keeps.
    public static let progressBuffer = 256

    /// The action's progress reports, in order, `completed` never decreasing.
    public let progress: AsyncStream<VMProgressNotification.Params>
    let task: Task<JSONValue, any Error>

    /// The action's value; throws what ``VMClient/execute(instance:action:value:timeoutMs:)``
    /// would (`requestCancelled` after ``cancel()``, `actionSuperseded` for a superseded
    /// execution of a `latest` action).
    public var value: JSONValue {
        get async throws { try await task.value }
    }

    /// Cancels the execution in the daemon (`$/cancelRequest`); its one reply is then
    /// `requestCancelled`, unless it finished first.
    public func cancel() { task.cancel() }
}
