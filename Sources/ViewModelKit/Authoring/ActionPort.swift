import JSONCore
import ReactiveCore

// ActionPort's declaration (its stored properties, designated initializer and type documentation)
// is in Internals/PortStorage/ActionPort+Storage.swift, beside the storage idioms it needs; this
// file, which authors read, keeps its API and none of them.
extension ActionPort {
    /// What the action does, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Executions run `action` with the client's value.
    public func bind(_ action: Action<Value, Element>) {
        execution = .action(action)
    }

    /// Executions run `action` with `transform(value)`.
    public func bind<ActionInput>(_ action: Action<ActionInput, Element>, input transform: @escaping (Value) -> ActionInput) {
        execution = .run { value, onProgress in action.execute(transform(value), onProgress: onProgress) }
    }

    /// Starts an execution now, as a client would; returns the action's execution observable.
    /// Fails with `ActionError.notEnabled` when the port is not bound.
    @discardableResult
    public func execute(_ value: Value) -> Observable<Element> {
        execute(value, onProgress: nil)
    }

    /// Starts an execution now, telling `onProgress` of its progress (see
    /// `Action.execute(_:onProgress:)`); returns the action's execution observable.
    @discardableResult
    public func execute(_ value: Value, onProgress: ((ActionProgress) -> Void)?) -> Observable<Element> {
        switch execution {
        case .action(let action): action.execute(value, onProgress: onProgress)
        case .run(let run): run(value, onProgress)
        case nil: .error(ActionError.notEnabled)
        }
    }

    fileprivate func setRun(_ run: @escaping Run) {
        execution = .run(run)
    }

    // MARK: PortBox

    var typed: TypedPort { .action(self) }

    func attach(facts shared: [PortFacts], at position: Int, bag: DisposeBag) -> TypedPort {
        if facts !== shared[position] { facts = shared[position] }
        attachBindings(to: bag)
        return typed
    }

    func detach(from bag: DisposeBag) {
        execution = nil
        bindings.detach(from: bag)
    }

    func execute(json: JSONValue, onProgress: ((ActionProgress) -> Void)?) throws(JSONDecodingError) -> Observable<JSONValue> {
        let encode = self.encode
        return execute(try decode(json), onProgress: onProgress).map(encode)
    }
}

extension ActionPort where Value == Void {
    /// Executions (which carry no value) run `action` with the latest value of `latest`,
    /// like Kickstarter's `tapSubmit.withLatestFrom(credentials)`: `latest` is subscribed
    /// for the instance's lifetime. Until it has a value, executing is not enabled.
    public func bind<ActionInput>(_ action: Action<ActionInput, Element>, with latest: some ObservableConvertibleType<ActionInput>) {
        let box = LatestValue<ActionInput>()
        keep(latest.asObservable().subscribe(onNext: { box.value = $0 }))
        setRun { _, onProgress in
            guard let value = box.value else { return .error(ActionError.notEnabled) }
            return action.execute(value, onProgress: onProgress)
        }
    }
}

/// The latest value seen on a stream (graph thread only).
private final class LatestValue<Value> {
    var value: Value?
}

extension ActionPort where Value: JSONConvertible, Element: JSONConvertible {
    /// An action taking and returning `JSONConvertible` values.
    @inlinable
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .json, output: .json)
    }
}

extension ActionPort where Value == Void, Element: JSONConvertible {
    /// An action taking no value (`{"type": "null"}`) and returning a `JSONConvertible` value.
    @inlinable
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .void, output: .json)
    }
}

extension ActionPort where Value: JSONConvertible, Element == Void {
    /// An action taking a `JSONConvertible` value and returning nothing (`null`).
    @inlinable
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .json, output: .void)
    }
}

extension ActionPort where Value == Void, Element == Void {
    /// An action taking and returning nothing.
    @inlinable
    public convenience init(_ summary: String = "") {
        self.init(summary, input: .void, output: .void)
    }
}
