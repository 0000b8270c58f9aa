import JSONCore
import JSONRPC
import ReactiveCore
import VMProtocol

/// A `vm.execute` whose action has not answered yet. Exactly one of these ends it: the
/// action's completion, `$/cancelRequest`, `timeoutMs`, the instance's destruction, or the
/// connection closing (which answers nothing).
final class OpenExecuteCall {
    let call: Call
    let instance: String
    let action: String
    let timeoutMs: Int64?
    /// `progress: true` on a request: its progress is sent as `vm.progress`.
    let sendsProgress: Bool
    /// `resetTimeoutOnProgress: true` with a `timeoutMs`: each progress restarts the timer.
    let progressResetsTimeout: Bool
    /// What each of its `vm.progress` starts with, made at the first one.
    var progressPrefix: [UInt8]?
    /// Disposing it cancels the action's work.
    var execution: (any Disposable)?
    var timer: (any Disposable)?
    /// The recorder and slot of its action event, when its instance is recorded (TapeRecorder.swift).
    var tape: (recorder: TapeRecorder, slot: Int)?
    private(set) var isFinished = false

    init(call: Call, instance: String, action: String, timeoutMs: Int64?, sendsProgress: Bool = false, progressResetsTimeout: Bool = false) {
        self.call = call
        self.instance = instance
        self.action = action
        self.timeoutMs = timeoutMs
        self.sendsProgress = sendsProgress && call.id != nil
        self.progressResetsTimeout = progressResetsTimeout && timeoutMs != nil
    }

    /// Whether the action's progress matters to this call at all.
    var observesProgress: Bool { sendsProgress || progressResetsTimeout }

    /// Marks it finished once; `false` if it already was. Stops the timer.
    func finish() -> Bool {
        guard !isFinished else { return false }
        isFinished = true
        timer?.dispose()
        timer = nil
        return true
    }

    /// Finishes it by cancelling the action's work.
    func cancelExecution() -> Bool {
        guard finish() else { return false }
        execution?.dispose()
        execution = nil
        return true
    }
}
