import JSONCore
import VMClient
import VMProtocol
import ViewModelKit

/// An instance of `VM` in a daemon, driven through `VM`'s own `Ports`: the same key paths a
/// `ViewModel`'s tests use with the harness, the same codecs the daemon
/// decodes and encodes with.
///
/// ```swift
/// let counter = try await client.create(Counter.self, args: .init(start: 5))
/// try await counter.send(\.increment, 2)
/// let count = try await counter.get(\.count)           // 7, an Int
/// for try await count in try await counter.values(\.count) { print(count) }
/// ```
///
/// A misspelled port or a value of the wrong type is a compile error; what the daemon
/// refuses (a value outside the port's schema, an unknown instance, a disabled action)
/// throws `VMClientError`, as every `VMClient` call does. A value the daemon
/// sends that `VM`'s codec cannot read (a daemon serving another version of `VM`) throws
/// `VMClientError.protocolViolation(_:)` naming the port. A key path that names
/// no stored port of `Ports` throws `ViewModelDefinitionError` before
/// anything is sent.
///
/// Not `Sendable` (it holds a `Ports()` of `VM`, whose ports and codecs are the author's
/// classes and closures): each call runs on its caller's actor (`isolation`), so a handle
/// kept by a `@MainActor` model is used from there. Make one per task or actor otherwise;
/// handles are cheap (one `Ports()`, reflected once) and share the client.
public struct RemoteViewModel<VM: ViewModel> {
    /// The connection every call goes through.
    public let client: VMClient
    /// The instance's id in the daemon.
    public let instance: String
    let ports: DeclaredPorts<VM>

    init(client: VMClient, instance: String, ports: DeclaredPorts<VM>) {
        self.client = client
        self.instance = instance
        self.ports = ports
    }

    /// `vm.send`: pushes `value` into `input`, encoded with the input's codec, and waits until
    /// the daemon processed it.
    public func send<Value>(
        _ input: KeyPath<VM.Ports, Input<Value>>, _ value: Value, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        let port = try ports.input(input)
        try await client.send(instance: instance, input: port.name, value: port.codec.encoded(value))
    }

    /// `vm.send` of an input that carries nothing (a tap).
    public func send(_ input: KeyPath<VM.Ports, Input<Void>>, isolation: isolated (any Actor)? = #isolation) async throws {
        try await send(input, (), isolation: isolation)
    }

    /// `vm.execute`: runs `action` with `value` and returns the element it gave, decoded with
    /// the action's codec. `timeoutMs` bounds the execution in the daemon; cancelling the
    /// calling task cancels it.
    public func execute<Value, Element>(
        _ action: KeyPath<VM.Ports, ActionPort<Value, Element>>, _ value: Value, timeoutMs: Int? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Element {
        let port = try ports.action(action)
        let result = try await client.execute(
            instance: instance, action: port.name, value: port.codec.input.encoded(value), timeoutMs: timeoutMs)
        return try Self.decode(result, with: port.codec.output, method: VMExecuteMethod.name, port: port.name)
    }

    /// `vm.execute` of an action that takes no value.
    public func execute<Element>(
        _ action: KeyPath<VM.Ports, ActionPort<Void, Element>>, timeoutMs: Int? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Element {
        try await execute(action, (), timeoutMs: timeoutMs, isolation: isolation)
    }

    /// `vm.get`: the current value of `state`, decoded with its codec.
    public func get<Value>(_ state: KeyPath<VM.Ports, State<Value>>, isolation: isolated (any Actor)? = #isolation) async throws -> Value {
        let port = try ports.state(state)
        let value = try await client.get(instance: instance, output: port.name)
        return try Self.decode(value, with: port.codec, method: VMGetMethod.name, port: port.name)
    }

    /// `vm.subscribe` to `state` alone: its current value first (unless `replay` is
    /// `false`), then every new one, decoded.
    public func values<Value>(
        _ state: KeyPath<VM.Ports, State<Value>>, replay: Bool = true, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteOutputValues<Value> {
        try await values(of: ports.state(state), replay: replay)
    }

    /// `vm.subscribe` to `event` alone: every value from now on, decoded.
    public func values<Value>(
        _ event: KeyPath<VM.Ports, EventOutput<Value>>, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteOutputValues<Value> {
        try await values(of: ports.event(event), replay: false)
    }

    /// `vm.destroy`: destroys the instance (its subscriptions end).
    public func destroy(isolation: isolated (any Actor)? = #isolation) async throws {
        try await client.destroy(instance)
    }

    private func values<Value>(
        of port: DeclaredPorts<VM>.Port<ValueCodec<Value>>, replay: Bool, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteOutputValues<Value> {
        let subscription = try await client.subscribe(
            instance: instance, options: SubscribeOptions(outputs: [port.name], replay: replay))
        return RemoteOutputValues(subscription: subscription, output: port.name, codec: port.codec)
    }

    /// `json`, which the daemon sent as `port`'s value, decoded with `codec`.
    static func decode<Value>(
        _ json: JSONValue, with codec: ValueCodec<Value>, method: String, port: String
    ) throws(VMClientError) -> Value {
        do {
            return try codec.decoded(json)
        } catch {
            throw .protocolViolation("\(method) \(port) of \(VM.typeName): \(error)")
        }
    }
}
