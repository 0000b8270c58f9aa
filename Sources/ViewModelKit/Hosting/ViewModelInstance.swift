import JSONCore
import ReactiveCore

/// One live view-model instance, as the server sees it: untyped, by wire names, in JSON.
///
/// Every call happens on the host's scheduler thread. Each call runs to its end before it
/// returns (an input's whole chain, an action's synchronous start), so calls on one instance
/// are processed one at a time, in order. After the instance was destroyed every call
/// throws ``ViewModelError/unknownInstance(instance:)``.
package final class ViewModelInstance {
    /// The instance id (`"counter-1"`).
    package let id: String
    /// Its type's description (the registry's, shared by every instance of the type: an
    /// instance keeps no copy of its own).
    package var type: ViewModelTypeDescription { registered.description }
    /// The id of the instance that created it, if any.
    package var parent: String? { relations?.parent }
    /// Its live children, in creation order.
    package var children: [String] { relations?.children ?? [] }
    /// `false` once destroyed. (Unchecked exclusivity, like `runtime`: read on every call,
    /// written once in a single statement, never held across a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    package private(set) var isAlive = true
    /// Whether ``runtime`` is set (calls before it throw `unknownInstance`, as after
    /// teardown). Unchecked exclusivity as for ``ports``. Declared next to ``isAlive`` so
    /// that the two flags share one word of the object (a word of every instance).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var isBuilt = false
    /// What the code serving the instance keeps beside it (the server: its scope, owner and
    /// subscriptions), so that the host's table is the only table of instances. The kit never
    /// reads it; it goes with the instance.
    package var attachment: AnyObject?
    /// Creation order within the host.
    let sequence: UInt64
    let registered: RegisteredType
    /// What was built; `nil` while the view model's `init` runs and once torn down.
    /// (Unchecked exclusivity: set once by `install`, moved out once by `close` before the
    /// runtime is torn down, read by single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var runtime: InstanceRuntime?
    /// Its ports, in declaration order (the list the factory built, kept beside the runtime),
    /// read on every call without going through the optional runtime; empty until built and
    /// once torn down. (Unchecked exclusivity: read on every `send`, each read one statement
    /// that copies an element out; written only when built and when torn down, on the host's
    /// thread.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var ports: [TypedPort] = []
    /// Its parent, children, running executions and the events its `init` emitted (until
    /// delivered), made when it first has one of them: most instances never do, and the
    /// fields were paid by every instance (`vmd-bench create`, RSS per idle Counter). (Unchecked exclusivity: assigned once, when made, and read in
    /// single expressions.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var relations: InstanceRelations?

    init(id: String, registered: RegisteredType, parent: String?, sequence: UInt64) {
        self.id = id
        self.registered = registered
        self.sequence = sequence
        if let parent { madeRelations().parent = parent }
    }

    /// ``relations``, made on first use.
    private func madeRelations() -> InstanceRelations {
        if let relations { return relations }
        let made = InstanceRelations()
        relations = made
        return made
    }

    /// Adds `child` (created by this instance) to its children.
    func addChild(_ child: String) {
        madeRelations().children.append(child)
    }

    /// Keeps `held`, the events its `init` emitted, until the host delivers them (or the
    /// instance goes first: then they are dropped).
    func keepHeldEvents(_ held: HeldEvents) {
        madeRelations().heldEvents = held
    }

    /// Removes `child` (destroyed, or failed to build) from its children.
    func removeChild(_ child: String) {
        relations?.children.removeAll { $0 == child }
    }

    /// The type's name (`"Counter"`).
    package var typeName: String { type.name }

    /// The names of its outputs of `kind` (all when `nil`), in declaration order.
    package func outputNames(_ kind: OutputKind? = nil) -> [String] {
        type.outputNames(kind)
    }

    /// The kind of output `output`.
    package func outputKind(_ output: String) throws(ViewModelError) -> OutputKind {
        guard let description = type.outputs.first(where: { $0.name == output }) else {
            throw .unknownOutput(type: typeName, instance: id, output: output, known: type.outputNames())
        }
        return description.kind
    }

    /// Pushes `value` into input `input` (`vm.send`); `nil` means omitted: the input's
    /// schema default, else `null`. Everything the input causes synchronously has happened
    /// when this returns.
    package func send(input: String, value: JSONValue? = nil) throws(ViewModelError) {
        try send(inputRoute(input), value: value)
    }

    /// Input `input`, looked up once for repeated ``send(_:value:)`` calls.
    /// - Throws: `unknownInstance` once destroyed, `unknownInput` for a name the type lacks.
    package func inputRoute(_ input: String) throws(ViewModelError) -> InputRoute {
        try checkLive()
        guard let slot = registered.inputs[input] else {
            throw .unknownInput(type: typeName, instance: id, input: input, known: type.inputs.map(\.name))
        }
        return InputRoute(name: input, registered: registered, slot: slot)
    }

    /// ``send(input:value:)`` through a route from ``inputRoute(_:)`` (of any instance of
    /// the same type; a route of another type is looked up again by its name).
    package func send(_ route: InputRoute, value: JSONValue? = nil) throws(ViewModelError) {
        guard route.registered === registered else { return try send(inputRoute(route.name), value: value) }
        try checkLive()
        guard let port = input(at: route.slot.index) else {
            throw .unknownInput(type: typeName, instance: id, input: route.name, known: type.inputs.map(\.name))
        }
        // The error target is built only on failure: this is every `vm.send`'s path.
        let checked: JSONValue
        switch route.slot.rule.check(value) {
        case .success(let valid):
            checked = valid
        case .failure(let violation):
            throw .invalidValue(.input(route.name, instance: id), path: violation.path, expected: violation.expected, got: violation.got)
        }
        do throws(JSONDecodingError) {
            try port.push(json: checked)
        } catch {
            throw Self.invalid(.input(route.name, instance: id), error)
        }
    }

    /// ``send(_:value:)`` of the JSON value in `bytes` (at nesting `depth` of its document,
    /// read within `maxDepth`), read straight from them by the input's `JSONReadable`
    /// reader when it has one and the reader accepts them; `false` when nothing was sent,
    /// for the caller to parse the bytes and call ``send(_:value:)``, which then reports
    /// whatever is wrong (an unknown or destroyed instance included).
    ///
    /// The reader stands in for the schema check: it exists only in a codec publishing its
    /// type's own schema, and accepts only values that schema and the type's `init(json:)`
    /// accept (JSONReadable.swift), so the value and the effects are the general path's.
    package func send(_ route: InputRoute, reading bytes: UnsafeBufferPointer<UInt8>, depth: Int, maxDepth: Int) -> Bool {
        guard route.registered === registered, isAlive, isBuilt, let port = input(at: route.slot.index) else { return false }
        do throws(JSONDecodingError) {
            return try port.push(reading: bytes, depth: depth, maxDepth: maxDepth)
        } catch {
            return false
        }
    }

    /// Whether input `route` can read values from their bytes (``send(_:reading:depth:maxDepth:)``
    /// sends nothing otherwise, so a caller may skip delimiting them).
    package func readsBytes(_ route: InputRoute) -> Bool {
        guard route.registered === registered, let port = input(at: route.slot.index) else { return false }
        return port.readsBytes
    }

    /// Starts action `action` with `value` (`vm.execute`; `nil` means omitted).
    ///
    /// Unknown actions and invalid values throw. Otherwise `completion` receives exactly one
    /// result: the execution's (last) element as JSON, or ``ViewModelError/actionNotEnabled(instance:action:)``,
    /// ``ViewModelError/actionFailed(instance:action:message:data:)``, or
    /// ``ViewModelError/unknownInstance(instance:)`` when the instance is destroyed first. It may
    /// be called before this method returns (a disabled action answers at once).
    ///
    /// Disposing the returned disposable cancels the execution (its `Task` too) and
    /// re-enables the action; `completion` is then never called.
    package func execute(
        action: String,
        value: JSONValue? = nil,
        progress: ((ActionProgress) -> Void)? = nil,
        completion: @escaping (Result<JSONValue, ViewModelError>) -> Void
    ) throws(ViewModelError) -> any Disposable {
        try checkLive()
        guard let slot = registered.actions[action] else {
            throw .unknownAction(type: typeName, instance: id, action: action, known: type.actions.map(\.name))
        }
        guard let port = self.action(at: slot.index) else {
            throw .unknownAction(type: typeName, instance: id, action: action, known: type.actions.map(\.name))
        }
        let target = ViewModelError.ValueTarget.action(action, instance: id)
        let checked = try Self.check(value, with: slot.rule, for: target)
        let execution: Observable<JSONValue>
        do throws(JSONDecodingError) {
            execution = try port.execute(json: checked, onProgress: progress)
        } catch {
            throw Self.invalid(target, error)
        }
        let relations = madeRelations()
        relations.nextExecution += 1
        let pending = RunningExecution(token: relations.nextExecution, instance: self, completion: completion)
        relations.executions[pending.token] = pending
        var last: JSONValue = .null
        let instanceID = id
        pending.subscription.setDisposable(execution.subscribe(
            onNext: { last = $0 },
            onError: { error in pending.finish(.failure(Self.failure(error, instance: instanceID, action: action))) },
            onCompleted: { pending.finish(.success(last)) }))
        return pending
    }

    /// The current value of state output `output`, encoded (`vm.get`).
    package func currentValue(output: String) throws(ViewModelError) -> JSONValue {
        let port = try outputPort(output)
        guard let value = port.currentJSON else { throw .notStateOutput(instance: id, output: output) }
        return value
    }

    /// ``currentValue(output:)`` as JSON text appended to `buffer`, written straight from the
    /// value when its type writes itself and no encoding of it is cached (`vm.get`'s reply).
    package func appendCurrentValue(output: String, to buffer: inout [UInt8]) throws(ViewModelError) {
        let port = try outputPort(output)
        guard port.appendCurrentJSON(to: &buffer) else { throw .notStateOutput(instance: id, output: output) }
    }

    /// Calls `handler` with every new value of output `output` (live values only: replay
    /// the current value with ``currentValue(output:)`` first). Each value is encoded once,
    /// however many handlers watch; all handlers see the same values in the same order.
    /// Nothing is delivered after the returned disposable is disposed or the instance is
    /// destroyed.
    package func observe(output: String, _ handler: @escaping (JSONValue) -> Void) throws(ViewModelError) -> any Disposable {
        try outputPort(output).observeJSON(handler, patches: nil)
    }

    /// ``observe(output:_:)``, but a change the output can say as an RFC 6902 patch from its
    /// previous value (a `State<IdentifiedList<…>>` changed through `update`) goes to
    /// `patches` instead of `handler`, without the value being encoded, with a lower bound
    /// of the new value's encoded length in bytes (so a caller can tell a patch is shorter
    /// without encoding the value); read the new value with ``currentValue(output:)`` when
    /// it is needed (encoded once per change, then cached).
    package func observe(
        output: String, _ handler: @escaping (JSONValue) -> Void, patches: @escaping (_ patch: JSONPatch, _ valueBytesAtLeast: Int) -> Void
    ) throws(ViewModelError) -> any Disposable {
        try outputPort(output).observeJSON(handler, patches: patches)
    }

    /// ``observe(output:_:patches:)``, but while `text`'s watcher is the output's only JSON
    /// watcher, a value whose type writes its own JSON text goes to `text` instead of
    /// `handler`, as a function appending that text and a function making the tree (for a
    /// caller that needs it after all).
    package func observe(
        output: String, _ handler: @escaping (JSONValue) -> Void, patches: @escaping (_ patch: JSONPatch, _ valueBytesAtLeast: Int) -> Void,
        text: @escaping (_ writeText: (inout [UInt8]) -> Void, _ tree: () -> JSONValue) -> Void
    ) throws(ViewModelError) -> any Disposable {
        try outputPort(output).observeJSON(handler, patches: patches, text: text)
    }

    /// The view model itself (for tests and tools that know its type).
    package var viewModel: Any? { runtime?.viewModel }

    // MARK: Internals

    /// Installs what the registry's factory built (the host, once the view model's `init`
    /// returned).
    func install(_ runtime: consuming InstanceRuntime, ports list: PortList) {
        ports = list.ports
        self.runtime = consume runtime
        isBuilt = true
    }

    private func checkLive() throws(ViewModelError) {
        guard isAlive, isBuilt else { throw .unknownInstance(instance: id) }
    }

    /// The input at `index` (a slot of ``RegisteredType/inputs``).
    private func input(at index: Int) -> (any InputPortBox)? {
        guard index >= 0, index < ports.count, case .input(let input) = ports[index] else { return nil }
        return input
    }

    /// The output at `index` (a value of ``RegisteredType/outputs``).
    private func output(at index: Int) -> (any OutputPortBox)? {
        guard index >= 0, index < ports.count, case .output(let output) = ports[index] else { return nil }
        return output
    }

    /// The action at `index` (a slot of ``RegisteredType/actions``).
    private func action(at index: Int) -> (any ActionPortBox)? {
        guard index >= 0, index < ports.count, case .action(let action) = ports[index] else { return nil }
        return action
    }

    private func outputPort(_ output: String) throws(ViewModelError) -> any OutputPortBox {
        try checkLive()
        guard let index = registered.outputs[output], let port = self.output(at: index) else {
            throw .unknownOutput(type: typeName, instance: id, output: output, known: type.outputNames())
        }
        return port
    }

    fileprivate func forget(_ token: UInt64) {
        relations?.executions[token] = nil
    }

    /// Ends the instance (the host calls this, children first): observers are dropped, the
    /// bag disposed, ports detached, pending executions cancelled and answered
    /// `unknownInstance`.
    func close() {
        guard isAlive else { return }
        isAlive = false
        isBuilt = false
        relations?.heldEvents?.discard()
        // The list moved out before the teardown rather than emptied after it: ~45 instructions
        // fewer per `vm.destroy` in callgrind (ViewModelDaemon.docc/Performance.md).
        let list = ports
        ports = []
        if let runtime = runtime.take() {
            runtime.tearDown(ports: consume list)
        }
        guard let relations, !relations.executions.isEmpty else { return }
        let pending = relations.executions.values.sorted { $0.token < $1.token }
        relations.executions = [:]
        for execution in pending {
            execution.cancel(answering: .unknownInstance(instance: id))
        }
    }

    static func check(_ value: JSONValue?, with rule: ValueRule, for target: ViewModelError.ValueTarget) throws(ViewModelError) -> JSONValue {
        switch rule.check(value) {
        case .success(let checked):
            return checked
        case .failure(let violation):
            throw .invalidValue(target, path: violation.path, expected: violation.expected, got: violation.got)
        }
    }

    static func invalid(_ target: ViewModelError.ValueTarget, _ error: JSONDecodingError) -> ViewModelError {
        .invalidValue(target, path: error.path, expected: error.expected, got: error.got)
    }

    private static func failure(_ error: any Error, instance: String, action: String) -> ViewModelError {
        if let actionError = error as? ActionError {
            switch actionError {
            case .notEnabled:
                return .actionNotEnabled(instance: instance, action: action)
            case .superseded:
                return .actionSuperseded(instance: instance, action: action)
            case .underlyingError(let underlying):
                let (message, data) = presentableMessage(of: underlying)
                return .actionFailed(instance: instance, action: action, message: message, data: data)
            }
        }
        let (message, data) = presentableMessage(of: error)
        return .actionFailed(instance: instance, action: action, message: message, data: data)
    }
}

/// What an instance has only when it has a parent, children, running executions or events
/// its `init` emitted (see `ViewModelInstance.relations`). Host's thread only, like the instance.
///
/// Unchecked exclusivity on every field: each access is one read, assignment or collection
/// call that runs no other code (an execution removed from `executions` is still held by its
/// caller, so no deinit runs inside the access).
private final class InstanceRelations {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var parent: String?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var children: [String] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var executions: [UInt64: RunningExecution] = [:]
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var nextExecution: UInt64 = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var heldEvents: HeldEvents?
}

/// One `execute` in flight: answers its completion exactly once, unless disposed first.
private final class RunningExecution: Cancelable {
    let token: UInt64
    let subscription = SingleAssignmentDisposable()
    private weak var instance: ViewModelInstance?
    private var completion: ((Result<JSONValue, ViewModelError>) -> Void)?

    init(token: UInt64, instance: ViewModelInstance, completion: @escaping (Result<JSONValue, ViewModelError>) -> Void) {
        self.token = token
        self.instance = instance
        self.completion = completion
    }

    var isDisposed: Bool { completion == nil }

    func finish(_ result: Result<JSONValue, ViewModelError>) {
        guard let completion else { return }
        self.completion = nil
        instance?.forget(token)
        completion(result)
    }

    /// Cancels the execution and answers `error` (the instance is going away).
    func cancel(answering error: ViewModelError) {
        guard let completion else { return }
        self.completion = nil
        subscription.dispose()
        completion(.failure(error))
    }

    func dispose() {
        guard completion != nil else { return }
        completion = nil
        instance?.forget(token)
        subscription.dispose()
    }
}
