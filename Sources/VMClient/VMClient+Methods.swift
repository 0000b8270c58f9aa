import JSONCore
import VMProtocol

/// Typed helpers, one per method of protocol level 1. Each builds the params, calls, and
/// reads the result; members newer than this client are ignored.
extension VMClient {
    // MARK: daemon.*

    /// `daemon.info`: identity, load and limits.
    public func info() async throws -> VMDaemonInfo {
        let result = try await call(DaemonInfoMethod.name)
        return try decodeResult(of: DaemonInfoMethod.name) { () throws(JSONDecodingError) in try VMDaemonInfo(json: result) }
    }

    /// `daemon.shutdown`: asks the daemon to stop (same user only). The connection then ends.
    public func shutdownDaemon() async throws {
        try await call(DaemonShutdownMethod.name)
    }

    /// `daemon.monitor`: every message any connection exchanges, live (same user only).
    public func monitor() async throws -> VMMonitor {
        let (stream, sink) = AsyncThrowingStream<VMMonitorMessage, any Error>.makeStream()
        let result = try await core.call(DaemonMonitorMethod.name, nil, opening: .monitor(sink))
        let id = result["monitor"]?.stringValue ?? ""
        return VMMonitor(id: id, stream: stream)
    }

    /// `daemon.unmonitor`: ends a monitor; its sequence ends.
    public func unmonitor(_ monitor: VMMonitor) async throws {
        try await call(DaemonUnmonitorMethod.name, ["monitor": .string(monitor.id)])
        core.endMonitor(monitor.id)
    }

    /// `rpc.discover`: the OpenRPC document the daemon serves.
    public func discover() async throws -> JSONValue {
        try await call(RPCDiscoverMethod.name)
    }

    // MARK: vm.*

    /// `vm.types`: every type the daemon serves, or only `type`.
    public func types(_ type: String? = nil) async throws -> [VMTypeDescription] {
        let result = try await call(VMTypesMethod.name, type.map { ["type": .string($0)] })
        return try decodeResult(of: VMTypesMethod.name) { () throws(JSONDecodingError) in
            let types: [JSONValue] = try JSONObjectDecoder(result).decode("types")
            var described: [VMTypeDescription] = []
            for (index, element) in types.enumerated() {
                do throws(JSONDecodingError) {
                    described.append(try VMTypeDescription(json: element))
                } catch {
                    throw error.prefixed(by: .index(index)).prefixed(by: .key("types"))
                }
            }
            return described
        }
    }

    /// `vm.create`: a new instance of `type`.
    /// - Parameters:
    ///   - id: the id to give it (`^[A-Za-z0-9._:-]{1,64}$`); `nil` lets the daemon choose.
    ///   - args: creation arguments (an object), validated against the type's `args` schema.
    ///   - scope: `.connection` destroys it when this client disconnects.
    ///   - subscribe: watch it from its very first value (atomic with the creation).
    public func create(
        type: String, id: String? = nil, args: JSONObject? = nil, scope: VMScope? = nil,
        subscribe: VMSubscribeOptions? = nil
    ) async throws -> VMCreatedInstance {
        var params: JSONObject = ["type": .string(type)]
        if let id { params["id"] = .string(id) }
        if let args { params["args"] = .object(args) }
        if let scope { params["scope"] = .string(scope.rawValue) }
        if let subscribe { params["subscribe"] = subscribe.jsonValue }
        var opened: AsyncThrowingStream<VMSubscriptionEvent, any Error>? = nil
        var opening: ClientCore.Opening? = nil
        if subscribe != nil {
            let (stream, sink) = AsyncThrowingStream<VMSubscriptionEvent, any Error>.makeStream()
            opened = stream
            opening = .subscription(sink, patches: subscribe?.patches ?? false)
        }
        let result = try await core.call(VMCreateMethod.name, .object(params), opening: opening)
        return try decodeResult(of: VMCreateMethod.name) { () throws(JSONDecodingError) in
            let members = try JSONObjectDecoder(result)
            let instance: String = try members.decode("instance")
            let subscriptionID: String? = try members.decode("subscription")
            var subscription: VMSubscription? = nil
            if let subscriptionID, let opened {
                subscription = VMSubscription(id: subscriptionID, instance: instance, stream: opened)
            }
            return VMCreatedInstance(
                instance: instance, type: try members.decode("type", default: type),
                scope: try members.decode("scope", default: scope?.rawValue ?? "daemon"), subscription: subscription)
        }
    }

    /// `vm.destroy`: destroys an instance (its subscribers get `vm.closed` with `destroyed`).
    public func destroy(_ instance: String) async throws {
        try await call(VMDestroyMethod.name, ["instance": .string(instance)])
    }

    /// `vm.list`: the live instances, in creation order.
    public func list() async throws -> [VMInstanceSummary] {
        let result = try await call(VMListMethod.name)
        return try decodeResult(of: VMListMethod.name) { () throws(JSONDecodingError) in
            let instances: [JSONValue] = try JSONObjectDecoder(result).decode("instances")
            var summaries: [VMInstanceSummary] = []
            for (index, element) in instances.enumerated() {
                do throws(JSONDecodingError) {
                    summaries.append(try VMInstanceSummary(json: element))
                } catch {
                    throw error.prefixed(by: .index(index)).prefixed(by: .key("instances"))
                }
            }
            return summaries
        }
    }

    /// `vm.send`: pushes a value into an input and waits until the daemon has processed it,
    /// so the outputs it caused on this connection have been delivered (O4). `nil` sends no
    /// value (the input's default applies).
    public func send(instance: String, input: String, value: JSONValue? = nil) async throws {
        try await call(VMSendMethod.name, Self.sendParams(instance, input, value))
    }

    /// `vm.send` as a notification: fire-and-forget; a failure arrives as `vm.error` on ``events``.
    public func sendAndForget(instance: String, input: String, value: JSONValue? = nil) throws {
        try notify(VMSendMethod.name, Self.sendParams(instance, input, value))
    }

    /// `vm.execute`: runs an action and returns its value. Cancelling the calling task
    /// cancels the execution (`$/cancelRequest`; the call then throws requestCancelled).
    public func execute(
        instance: String, action: String, value: JSONValue? = nil, timeoutMs: Int? = nil
    ) async throws -> JSONValue {
        var params: JSONObject = ["instance": .string(instance), "action": .string(action)]
        if let value { params["value"] = value }
        if let timeoutMs { params["timeoutMs"] = .integer(Int64(timeoutMs)) }
        let result = try await call(VMExecuteMethod.name, .object(params))
        return try Self.value(of: result, method: VMExecuteMethod.name)
    }

    /// `vm.get`: the current value of a state output.
    public func get(instance: String, output: String) async throws -> JSONValue {
        let result = try await call(VMGetMethod.name, ["instance": .string(instance), "output": .string(output)])
        return try Self.value(of: result, method: VMGetMethod.name)
    }

    /// `vm.subscribe`: watches an instance's outputs.
    public func subscribe(instance: String, options: VMSubscribeOptions = VMSubscribeOptions()) async throws -> VMSubscription {
        var params: JSONObject = ["instance": .string(instance)]
        if case .object(let extra) = options.jsonValue {
            for (key, value) in extra { params[key] = value }
        }
        let (stream, sink) = AsyncThrowingStream<VMSubscriptionEvent, any Error>.makeStream()
        let result = try await core.call(VMSubscribeMethod.name, .object(params), opening: .subscription(sink, patches: options.patches))
        guard let id = result["subscription"]?.stringValue else {
            throw VMClientError.protocolViolation("vm.subscribe result has no \"subscription\" id")
        }
        return VMSubscription(id: id, instance: instance, stream: stream)
    }

    /// `vm.unsubscribe`: ends a subscription; its sequence ends (no `vm.closed` comes).
    public func unsubscribe(_ subscription: VMSubscription) async throws {
        try await call(VMUnsubscribeMethod.name, ["subscription": .string(subscription.id)])
        core.endSubscription(subscription.id)
    }

    // MARK: - Helpers

    private static func sendParams(_ instance: String, _ input: String, _ value: JSONValue?) -> JSONValue {
        var params: JSONObject = ["instance": .string(instance), "input": .string(input)]
        if let value { params["value"] = value }
        return .object(params)
    }

    private static func value(of result: JSONValue, method: String) throws -> JSONValue {
        guard let value = result["value"] else {
            throw VMClientError.protocolViolation("\(method) result has no \"value\"")
        }
        return value
    }
}
