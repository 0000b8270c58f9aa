import JSONCore
import JSONRPC
import VMProtocol
import ViewModelKit

/// Method name → handler. Handlers throw their failure; the dispatcher turns any error into
/// a wire error in one place (``WireError/init(_:)``) and answers.
extension Server {
    /// What a handler produced.
    enum Outcome {
        /// Answer with this result.
        case result(JSONValue)
        /// Answer with this already-encoded result.
        case encoded([UInt8])
        /// Answer with this encoded result, the same for every call (``Server/reply(_:constantResult:)``).
        case constant(StaticString)
        /// Answer with this result, then run `after` (a subscription's replay follows its reply).
        case resultThen(JSONValue, after: () -> Void)
        /// Answer with the `vm.create` result, written member by member into the reply (no
        /// ``JSONValue`` is built); then run `after`, if any, as for ``resultThen(_:after:)``.
        case created(VMCreateMethod.Result, after: (() -> Void)?)
        /// The handler answers later itself (`vm.execute`).
        case pending
    }

    /// Methods that touch instances: after ``shutdown()`` they answer `shuttingDown`
    /// (their `errors` in openrpc.json list it).
    static let stoppedWhileShuttingDown: Set<String> = [
        VMCreateMethod.name, VMDestroyMethod.name, VMSendMethod.name, VMExecuteMethod.name,
        VMGetMethod.name, VMTapeMethod.name, VMSubscribeMethod.name, VMUnsubscribeMethod.name,
    ]

    func dispatch(_ call: Call) {
        dispatch(call) { call throws in try handle(call) }
    }

    /// ``dispatch(_:)`` for a call whose params were read without a tree (RequestFrame.swift):
    /// its method's handler gets them as they are, with no lookup of the method by name and
    /// no tree to decode.
    func dispatch(_ call: Call, typed: RequestFrame.TypedParams) {
        dispatch(call) { call throws in
            switch typed {
            case .create(let type): try create(call, VMCreateMethod.Params(type: type))
            case .destroy(let instance): try destroy(call, VMDestroyMethod.Params(instance: instance))
            }
        }
    }

    @inline(__always)
    private func dispatch(_ call: Call, handling handle: (Call) throws -> Outcome) {
        let outcome: Outcome
        do {
            if isShuttingDown, Self.stoppedWhileShuttingDown.contains(call.method) { throw WireError.shuttingDown }
            outcome = try handle(call)
        } catch {
            fail(call, error)
            return
        }
        // Consumed: the payloads move out (a `vm.create` result is not copied).
        switch consume outcome {
        case .result(let result):
            reply(call, .success(result))
        case .encoded(let bytes):
            reply(call, encodedResult: bytes)
        case .constant(let text):
            reply(call, constantResult: text)
        case .resultThen(let result, let after):
            reply(call, .success(result))
            after()
        case .created(let result, let after):
            reply(call, created: result)
            after?()
        case .pending:
            break
        }
    }

    /// Ordered by how often clients call them: `vm.send` is the hot path.
    private func handle(_ call: Call) throws -> Outcome {
        switch call.method {
        case VMSendMethod.name: return try send(call)
        case VMGetMethod.name: return try get(call)
        case VMTapeMethod.name: return try tape(call)
        case VMExecuteMethod.name: return try execute(call)
        case CancelRequestNotification.name: return try cancelRequest(call)
        case VMSubscribeMethod.name: return try subscribe(call)
        case VMUnsubscribeMethod.name: return try unsubscribe(call)
        case VMCreateMethod.name: return try create(call)
        case VMDestroyMethod.name: return try destroy(call)
        case VMListMethod.name: return try list(call)
        case VMTypesMethod.name: return try types(call)
        case DaemonInfoMethod.name: return try info(call)
        case RPCDiscoverMethod.name:
            try RPCDiscoverMethod.decodeParams(call.params)
            return .encoded(RPCDiscoverMethod.encodedResult)
        case DaemonMonitorMethod.name: return try monitor(call)
        case DaemonUnmonitorMethod.name: return try unmonitor(call)
        case DaemonShutdownMethod.name: return try shutdownRequest(call)
        case SessionOpenMethod.name: return try sessionOpen(call)
        case SessionResumeMethod.name: return try sessionResume(call)
        case SessionCloseMethod.name: return try sessionClose(call)
        default: throw WireError.methodNotFound(call.method)
        }
    }

    /// Answers a failed call: the error for a request; for a fire-and-forget `vm.send` or
    /// `vm.execute`, a `vm.error` notification (a failure is never silent).
    func fail(_ call: Call, _ error: any Error) {
        let wire = WireError(error)
        if wire.code == .internalError, !(error is WireError) {
            log(.internalError(method: call.method, detail: String(describing: error)))
        }
        if call.isNotification {
            guard call.method == VMSendMethod.name || call.method == VMExecuteMethod.name else { return }
            notifyError(call, wire)
        } else {
            reply(call, .failure(wire))
        }
    }

    /// `vm.error` for a failed fire-and-forget call, with the members its params had.
    func notifyError(_ call: Call, _ error: WireError) {
        let params = call.params
        outbox.send(to: call.session) { buffer in
            VMErrorNotification.append(
                method: call.method, instance: params?["instance"]?.stringValue,
                input: call.method == VMSendMethod.name ? params?["input"]?.stringValue : nil,
                action: call.method == VMExecuteMethod.name ? params?["action"]?.stringValue : nil,
                error: error, to: &buffer)
        }
    }

    /// Same-user-only methods (PROTOCOL.md §12).
    func requireSameUser(_ call: Call) throws(WireError) {
        guard call.session.peer.uid == identity.uid else {
            throw WireError.permissionDenied(method: call.method, daemonUID: identity.uid, peerUID: call.session.peer.uid)
        }
    }
}
