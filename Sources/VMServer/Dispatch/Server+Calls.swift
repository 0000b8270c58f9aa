import JSONCore
import JSONRPC
import ReactiveCore
import VMProtocol
import ViewModelKit

/// `vm.send`, `vm.get`, `vm.execute` and `$/cancelRequest`.
extension Server {
    func send(_ call: Call) throws -> Outcome {
        let params = try VMSendMethod.Params(call.params)
        let instance = try host.instance(params.instance)
        // Taped before it is delivered, so that the outputs it causes follow it.
        let recorder = (instance.attachment as? InstanceRecord)?.recorder
        let slot = recorder?.input(params.input, value: params.value, connection: call.session.number)
        do {
            // Everything the input causes synchronously is queued inside, before the reply (O4).
            try instance.send(input: params.input, value: params.value)
        } catch {
            if let slot { recorder?.retract(slot) }
            throw error
        }
        return .result(VMSendMethod.result)
    }

    func get(_ call: Call) throws -> Outcome {
        let params = try VMGetMethod.Params(call.params)
        let instance = try host.instance(params.instance)
        return .encoded(try VMGetMethod.encodedResult { (buffer: inout [UInt8]) throws(ViewModelError) in
            try instance.appendCurrentValue(output: params.output, to: &buffer)
        })
    }

    func execute(_ call: Call) throws -> Outcome {
        let params = try VMExecuteMethod.Params(call.params)
        let instance = try host.instance(params.instance)
        let pending = OpenExecuteCall(
            call: call, instance: params.instance, action: params.action, timeoutMs: params.timeoutMs,
            sendsProgress: params.progress, progressResetsTimeout: params.resetTimeoutOnProgress)
        call.session.pendingExecutions.append(pending)
        if let recorder = (instance.attachment as? InstanceRecord)?.recorder {
            pending.tape = (recorder, recorder.action(
                params.action, value: params.value, timeoutMs: params.timeoutMs, connection: call.session.number))
        }
        let execution: any Disposable
        // Only a call that asked pays for a progress observer.
        let onProgress: ((ActionProgress) -> Void)? = pending.observesProgress
            ? { [weak self] progress in self?.progressed(pending, progress) } : nil
        do {
            // The completion may run before `execute` returns (a disabled action answers at once).
            execution = try instance.execute(action: params.action, value: params.value, progress: onProgress) { [weak self] result in
                self?.complete(pending, result.mapError { $0 as any Error })
            }
        } catch {
            _ = pending.finish()
            if let tape = pending.tape { tape.recorder.retract(tape.slot) }
            call.session.pendingExecutions.removeAll { $0 === pending }
            throw error
        }
        guard !pending.isFinished else { return .pending }
        pending.execution = execution
        startTimer(of: pending)
        return .pending
    }

    /// Starts (or restarts) the `timeoutMs` count of `pending`, if it has one.
    private func startTimer(of pending: OpenExecuteCall) {
        guard let timeoutMs = pending.timeoutMs else { return }
        pending.timer?.dispose()
        pending.timer = scheduler.schedule(after: .milliseconds(timeoutMs)) { [weak self] in
            guard let self, pending.cancelExecution() else { return }
            answer(pending, .failure(WireError.actionTimedOut(instance: pending.instance, action: pending.action, timeoutMs: timeoutMs)))
        }
    }

    /// The action reported progress for `pending` (on the loop, before its completion):
    /// `vm.progress` if the call asked for it, and a fresh timeout if progress resets it.
    /// Nothing once the call was answered, so no progress follows its reply.
    private func progressed(_ pending: OpenExecuteCall, _ progress: ActionProgress) {
        guard !pending.isFinished else { return }
        // Only once the timer exists: progress reported while `execute` starts needs no reset.
        if pending.progressResetsTimeout, pending.timer != nil { startTimer(of: pending) }
        let session = pending.call.session
        guard pending.sendsProgress, let id = pending.call.id, session.isOpen else { return }
        let prefix = pending.progressPrefix ?? VMProgressNotification.prefix(request: id, instance: pending.instance, action: pending.action)
        pending.progressPrefix = prefix
        outbox.send(to: session) { buffer in
            VMProgressNotification.append(
                prefix: prefix, completed: progress.completed, total: progress.total, message: progress.message, to: &buffer)
        }
    }

    func cancelRequest(_ call: Call) throws(WireError) -> Outcome {
        let params = try CancelRequestNotification.Params(call.params)
        let session = call.session
        if let pending = session.pendingExecutions.first(where: { $0.call.id?.matches(params.id) == true }),
           pending.cancelExecution() {
            answer(pending, .failure(WireError.requestCancelled))
        }
        // Sent as a request it is answered `null`, after the cancelled call's reply.
        return .result(.null)
    }

    /// The action answered (or the kit cancelled it because its instance went away).
    private func complete(_ pending: OpenExecuteCall, _ result: Result<JSONValue, any Error>) {
        guard pending.finish() else { return }
        pending.execution = nil
        switch result {
        case .success(let value):
            answer(pending, .success(VMExecuteMethod.result(value: value)))
        case .failure(let error):
            var wire = WireError(error)
            if isShuttingDown, wire.code == .unknownInstance { wire = .shuttingDown }
            answer(pending, .failure(wire))
        }
    }

    /// Writes the one reply of a finished execution (a `vm.error` when it was a notification).
    private func answer(_ pending: OpenExecuteCall, _ outcome: Result<JSONValue, WireError>) {
        let call = pending.call
        if let tape = pending.tape {
            switch outcome {
            case .success(let result): tape.recorder.finishAction(tape.slot, outcome: ["result": result["value"] ?? .null])
            case .failure(let error): tape.recorder.finishAction(tape.slot, outcome: ["error": error.jsonValue])
            }
        }
        call.session.pendingExecutions.removeAll { $0 === pending }
        guard call.session.isOpen else { return }
        switch outcome {
        case .success:
            reply(call, outcome)
        case .failure(let error):
            if call.isNotification { notifyError(call, error) } else { reply(call, outcome) }
        }
        // A successful notification writes nothing: tell the transport this work is over.
        call.session.sink.workEnded()
    }
}
