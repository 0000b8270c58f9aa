import JSONCore
import ReactiveCore

// EventOutput's declaration (its stored properties, designated initializer and type documentation)
// is in Internals/PortStorage/EventOutput+Storage.swift, beside the storage idioms it needs; this
// file, which authors read, keeps its API and none of them.
extension EventOutput {
    /// What the output means, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Subscribes `source` for the instance's lifetime; its elements are this output's values.
    /// (Observed by one closure, as `State.bind(_:)` explains.)
    @inlinable public func bind(_ source: some ObservableConvertibleType<Value>) {
        keep(source.asObservable().subscribe(AnyObserver { event in
            if case .next(let value) = event { self.emit(value) }
        }))
    }

    /// Emits `value` now, as if a bound source had.
    @inlinable public func accept(_ value: Value) {
        emit(value)
    }

    @inlinable func emit(_ value: Value) {
        if isHolding, holdOrRelease(value) { return }
        fanOut.emit(value, encode: encode)
    }

    /// While `init` runs, holds `value` (returns `true`). After it, releases what `init`
    /// emitted, so it goes first, then stops holding (returns `false`: emit `value` now).
    @usableFromInline func holdOrRelease(_ value: Value) -> Bool {
        guard let held else { return false }
        if held.holdsNewEvents {
            held.hold { self.fanOut.emit(value, encode: self.encode) }
            return true
        }
        held.release()
        self.held = nil
        return false
    }

    /// Every value from now on (nothing is replayed).
    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        fanOut.subscribeTyped(AnyObserver(observer))
    }

    @inlinable public func asObservable() -> Observable<Value> {
        Observable.create { observer in self.subscribe(observer) }
    }

    // MARK: PortBox

    var typed: TypedPort { .output(self) }

    func attach(facts shared: [PortFacts], at position: Int, bag: DisposeBag) -> TypedPort {
        if facts !== shared[position] { facts = shared[position] }
        attachBindings(to: bag)
        return typed
    }

    func detach(from bag: DisposeBag) {
        bindings.detach(from: bag)
    }

    func holdEvents(in held: HeldEvents?) {
        self.held = held
    }

    var currentJSON: JSONValue? { nil }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?) -> any Disposable {
        fanOut.observeJSON(handler)
    }

    func closeJSON() {
        fanOut.closeJSON()
    }
}

extension EventOutput where Value: JSONConvertible {
    /// An event output of a `JSONConvertible` type.
    public convenience init(_ summary: String = "") {
        self.init(summary, codec: .json)
    }
}

extension EventOutput where Value == Void {
    /// An event output that carries nothing: `null` on the wire.
    public convenience init(_ summary: String = "") {
        self.init(summary, codec: .void)
    }
}
