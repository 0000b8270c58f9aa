import JSONCore
import ReactiveCore

// State's declaration (its stored properties, designated initializer and type documentation)
// is in Internals/PortStorage/State+Storage.swift, beside the storage idioms it needs; this
// file, which authors read, keeps its API and none of them.
extension State {
    /// The current value.
    public var value: Value { storedValue }

    /// What the output means, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Subscribes `source` for the instance's lifetime; its elements become the state's
    /// values. Errors and completion end the binding and keep the last value.
    ///
    /// The source is observed by one closure, not through `subscribe(onNext:)`: every
    /// observable already keeps the grammar (nothing follows a terminal event), so the
    /// closure subscriber's own guard, its object and a second closure would be spent per
    /// bound port per instance, and one more call per value.
    @inlinable public func bind(_ source: some ObservableConvertibleType<Value>) {
        keep(source.asObservable().subscribe(AnyObserver { event in
            if case .next(let value) = event { self.emit(value) }
        }))
    }

    /// Sets the value now, as if a bound source had emitted it.
    @inlinable public func accept(_ value: Value) {
        emit(value)
    }

    /// `value` becomes the current value, and goes to the observers if there are any.
    @inlinable func emit(_ value: Value) {
        if let fanOut {
            fanOut.emit(value, encode: encode, writeText: writeText)
        } else {
            // Nobody observes (or ever did): no observer runs, so nothing re-enters here.
            storedValue = value
        }
    }

    /// The value most recently given to ``emit(_:)``: the current value, or the last one
    /// queued behind it while an observer of the current one re-enters (see OutputFanOut.swift).
    @inlinable var latestEmitted: Value {
        if let fanOut, let queued = fanOut.lastQueued { return queued }
        return storedValue
    }

    /// The fan-out, made (and from then on kept) on first use.
    @usableFromInline func madeFanOut() -> OutputFanOut<Value> {
        if let fanOut { return fanOut.fanOut }
        let made = OutputFanOut<Value>()
        made.state = self
        fanOut = HeldFanOut(retaining: made)
        return made
    }

    /// The current value, then every new one.
    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        observer.onNext(value)
        return madeFanOut().subscribeTyped(AnyObserver(observer))
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

    /// The current value encoded: cached by the fan-out until the next value, encoded anew
    /// while nobody observes the state.
    var currentJSON: JSONValue? {
        guard let fanOut = fanOut?.fanOut else { return encode(value) }
        if let cachedJSON = fanOut.cachedJSON { return cachedJSON }
        let encoded = encode(value)
        fanOut.cachedJSON = encoded
        return encoded
    }

    /// The current value's text: from its cached encoding when there is one, else written by
    /// the codec's writer when it has one (no tree), else encoded (and cached, as
    /// ``currentJSON`` does).
    func appendCurrentJSON(to buffer: inout [UInt8]) -> Bool {
        if fanOut?.fanOut.cachedJSON == nil, let writeText {
            writeText(value, &buffer)
        } else {
            JSONSerializer.append(currentJSON ?? .null, to: &buffer)
        }
        return true
    }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?) -> any Disposable {
        madeFanOut().observeJSON(handler, patches: patches)
    }

    func observeJSON(
        _ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?, text: @escaping JSONWatcher.TextHandler
    ) -> any Disposable {
        madeFanOut().observeJSON(handler, patches: patches, text: text)
    }

    /// Nothing to close when nobody ever observed the state: JSON observers come only through
    /// `ViewModelInstance.observe(output:_:)`, which refuses them once the instance closed.
    func closeJSON() {
        fanOut?.fanOut.closeJSON()
    }
}

extension State where Value: Equatable {
    /// Subscribes `source` for the instance's lifetime, as the unconstrained `bind` does, but
    /// a value equal to the state's latest one is not sent again.
    @inlinable public func bind(_ source: some ObservableConvertibleType<Value>) {
        keep(source.asObservable().subscribe(AnyObserver { event in
            if case .next(let value) = event { self.emitChange(value) }
        }))
    }

    /// Sets the value now, as if a bound source had emitted it; nothing is sent when it equals
    /// the state's latest value.
    @inlinable public func accept(_ value: Value) {
        emitChange(value)
    }

    @inlinable func emitChange(_ value: Value) {
        if value != latestEmitted { emit(value) }
    }
}

extension State where Value: JSONConvertible {
    /// A state output of a `JSONConvertible` type, holding `initial` until its source says
    /// otherwise.
    public convenience init(_ summary: String = "", initial: Value) {
        self.init(summary, initial: initial, codec: .json)
    }
}

extension State where Value: JSONByteWritable {
    /// A state output of a `JSONByteWritable` type, holding `initial` until its source says
    /// otherwise: as for any `JSONConvertible` type, and a lone subscriber of whole values gets
    /// the bytes its `writeJSON(to:)` writes, without a tree.
    public convenience init(_ summary: String = "", initial: Value) {
        self.init(summary, initial: initial, codec: .json)
    }
}
