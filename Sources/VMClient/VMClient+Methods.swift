import JSONCore
import VMProtocol

/// Typed helpers, one per method of protocol level 1. Each encodes the method's `Params` and
/// decodes its `Result` with VMProtocol's types, the ones the daemon decodes and encodes;
/// members newer than this client are ignored.
extension VMClient {
    // MARK: daemon.*

    /// `daemon.info`: identity, load and limits.
    public func info() async throws -> DaemonInfoMethod.Result {
        let result = try await call(DaemonInfoMethod.name)
        return try decodeResult(of: DaemonInfoMethod.name) { () throws(JSONDecodingError) in
            try DaemonInfoMethod.Result(json: result)
        }
    }

    /// `daemon.shutdown`: asks the daemon to stop (same user only). The connection then ends.
    public func shutdownDaemon() async throws {
        try await call(DaemonShutdownMethod.name)
    }

    /// `daemon.monitor`: every message any connection exchanges, live (same user only).
    public func monitor() async throws -> VMMonitor {
        let (stream, sink) = AsyncThrowingStream<VMMonitorMessage, any Error>.makeStream()
        let result = try await core.call(DaemonMonitorMethod.name, nil, opening: .monitor(sink))
        let opened = try decodeResult(of: DaemonMonitorMethod.name) { () throws(JSONDecodingError) in
            try DaemonMonitorMethod.Result(json: result)
        }
        return VMMonitor(id: opened.monitor, stream: stream)
    }

    /// `daemon.unmonitor`: ends a monitor; its sequence ends.
    public func unmonitor(_ monitor: VMMonitor) async throws {
        try await call(DaemonUnmonitorMethod.name, DaemonUnmonitorMethod.Params(monitor: monitor.id).jsonValue)
        core.endMonitor(monitor.id)
    }

    /// `rpc.discover`: the OpenRPC document the daemon serves.
    public func discover() async throws -> JSONValue {
        try await call(RPCDiscoverMethod.name)
    }

    // MARK: vm.*

    /// `vm.types`: every type the daemon serves, or only `type`.
    public func types(_ type: String? = nil) async throws -> [VMTypesMethod.TypeDescription] {
        let result = try await call(VMTypesMethod.name, VMTypesMethod.Params(type: type).jsonValue)
        return try decodeResult(of: VMTypesMethod.name) { () throws(JSONDecodingError) in
            try VMTypesMethod.decodeResult(result)
        }
    }

    /// `vm.create`: a new instance of `type`.
    /// - Parameters:
    ///   - id: the id to give it (`^[A-Za-z0-9._:-]{1,64}$`); `nil` lets the daemon choose.
    ///   - args: creation arguments (an object), validated against the type's `args` schema.
    ///   - scope: `.connection` destroys it when this client disconnects.
    ///   - subscribe: watch it from its very first value (atomic with the creation).
    ///   - durable: keep it, and what it saves, across daemon restarts (daemon scope only).
    ///   - record: record it from its creation; ``tape(instance:)`` reads the tape.
    public func create(
        type: String, id: String? = nil, args: JSONObject? = nil, scope: InstanceScope = .daemon,
        subscribe: SubscribeOptions? = nil, durable: Bool = false, record: Bool = false
    ) async throws -> VMCreatedInstance {
        let params = VMCreateMethod.Params(
            type: type, id: id, args: args.map(JSONValue.object), scope: scope, subscribe: subscribe, durable: durable,
            record: record)
        var opened: SubscriptionConsumer? = nil
        var opening: ClientCore.Opening? = nil
        if let subscribe {
            let channel = SubscriptionChannel()
            opened = SubscriptionConsumer(channel: channel)
            opening = .subscription(channel, SubscriptionTarget(instance: nil, options: subscribe))
        }
        let result = try await core.call(VMCreateMethod.name, params.jsonValue, opening: opening)
        let created = try decodeResult(of: VMCreateMethod.name) { () throws(JSONDecodingError) in
            try VMCreateMethod.Result(json: result)
        }
        var subscription: VMSubscription? = nil
        if let subscriptionID = created.subscription, let opened {
            subscription = VMSubscription(id: subscriptionID, instance: created.instance, consumer: opened)
        }
        return VMCreatedInstance(instance: created.instance, type: created.type, scope: created.scope, subscription: subscription)
    }

    /// `vm.destroy`: destroys an instance (its subscribers get `vm.closed` with `destroyed`).
    public func destroy(_ instance: String) async throws {
        try await call(VMDestroyMethod.name, VMDestroyMethod.Params(instance: instance).jsonValue)
    }

    /// `vm.list`: the live instances, in creation order.
    public func list() async throws -> [VMListMethod.Summary] {
        let result = try await call(VMListMethod.name)
        return try decodeResult(of: VMListMethod.name) { () throws(JSONDecodingError) in
            try VMListMethod.decodeResult(result)
        }
    }

    /// `vm.send`: pushes a value into an input and waits until the daemon has processed it,
    /// so the outputs it caused on this connection have been delivered (O4). `nil` sends no
    /// value (the input's default applies).
    public func send(instance: String, input: String, value: JSONValue? = nil) async throws {
        try await call(VMSendMethod.name, VMSendMethod.Params(instance: instance, input: input, value: value).jsonValue)
    }

    /// `vm.send` as a notification: fire-and-forget; a failure arrives as `vm.error` on ``events``.
    public func sendAndForget(instance: String, input: String, value: JSONValue? = nil) throws {
        try notify(VMSendMethod.name, VMSendMethod.Params(instance: instance, input: input, value: value).jsonValue)
    }

    /// `vm.execute`: runs an action and returns its value. Cancelling the calling task
    /// cancels the execution (`$/cancelRequest`; the call then throws requestCancelled).
    public func execute(
        instance: String, action: String, value: JSONValue? = nil, timeoutMs: Int? = nil
    ) async throws -> JSONValue {
        let params = VMExecuteMethod.Params(instance: instance, action: action, value: value, timeoutMs: timeoutMs.map(Int64.init))
        let result = try await call(VMExecuteMethod.name, params.jsonValue)
        return try decodeResult(of: VMExecuteMethod.name) { () throws(JSONDecodingError) in
            try VMExecuteMethod.Result(json: result).value
        }
    }

    /// `vm.execute` with its progress: starts the execution now and returns at once; iterate
    /// its ``VMExecution/progress`` (which ends with the reply), then await its
    /// ``VMExecution/value``. `resetTimeoutOnProgress` restarts `timeoutMs` at each progress.
    public func startExecute(
        instance: String, action: String, value: JSONValue? = nil, timeoutMs: Int? = nil, resetTimeoutOnProgress: Bool = false
    ) -> VMExecution {
        let params = VMExecuteMethod.Params(
            instance: instance, action: action, value: value, timeoutMs: timeoutMs.map(Int64.init),
            progress: true, resetTimeoutOnProgress: resetTimeoutOnProgress)
        let (stream, sink) = AsyncStream<VMProgressNotification.Params>.makeStream(
            bufferingPolicy: .bufferingNewest(VMExecution.progressBuffer))
        let core = self.core
        let task = Task {
            defer { sink.finish() }
            let result = try await core.call(VMExecuteMethod.name, params.jsonValue, progress: sink)
            return try decodeResult(of: VMExecuteMethod.name) { () throws(JSONDecodingError) in
                try VMExecuteMethod.Result(json: result).value
            }
        }
        return VMExecution(progress: stream, task: task)
    }

    /// `vm.get`: the current value of a state output.
    public func get(instance: String, output: String) async throws -> JSONValue {
        let result = try await call(VMGetMethod.name, VMGetMethod.Params(instance: instance, output: output).jsonValue)
        return try decodeResult(of: VMGetMethod.name) { () throws(JSONDecodingError) in
            try VMGetMethod.Result(json: result).value
        }
    }

    /// `vm.tape`: the tape so far of an instance created with `record: true`, its lines as
    /// JSON objects, the header first (``VMTapeMethod/Result/text`` is the file's text).
    public func tape(instance: String) async throws -> VMTapeMethod.Result {
        let result = try await call(VMTapeMethod.name, VMTapeMethod.Params(instance: instance).jsonValue)
        return try decodeResult(of: VMTapeMethod.name) { () throws(JSONDecodingError) in
            try VMTapeMethod.Result(json: result)
        }
    }

    /// `vm.subscribe`: watches an instance's outputs.
    public func subscribe(instance: String, options: SubscribeOptions = SubscribeOptions()) async throws -> VMSubscription {
        let params = VMSubscribeMethod.Params(instance: instance, options: options)
        let channel = SubscriptionChannel()
        let consumer = SubscriptionConsumer(channel: channel)
        let result = try await core.call(VMSubscribeMethod.name, params.jsonValue, opening: .subscription(channel, SubscriptionTarget(instance: instance, options: options)))
        let opened = try decodeResult(of: VMSubscribeMethod.name) { () throws(JSONDecodingError) in
            try VMSubscribeMethod.Result(json: result)
        }
        return VMSubscription(id: opened.subscription, instance: instance, consumer: consumer)
    }

    /// `vm.unsubscribe`: ends a subscription; its sequence ends (no `vm.closed` comes).
    public func unsubscribe(_ subscription: VMSubscription) async throws {
        // After vmd restarted, the daemon knows the subscription by the id it was opened again under.
        let id = core.currentSubscriptionID(subscription.id)
        try await call(VMUnsubscribeMethod.name, VMUnsubscribeMethod.Params(subscription: id).jsonValue)
        core.endSubscription(id)
    }
}
