import JSONCore
import ReactiveCore

/// A state output: it always has a current value (`vm.get` reads it, new subscribers get it
/// first), like RxCocoa's `Driver`: it never errors, and it is shared.
///
/// Declare it in the view model's ``ViewModelPorts`` with the value it has before the view
/// model says otherwise, then `bind(_:)` a source to it in `init`:
///
/// ```swift
/// let isLoading = State<Bool>("submit is running.", initial: false)
/// …
/// ports.isLoading.bind(submit.executing)
/// ```
///
/// The source is subscribed **once**, when bound, for the instance's lifetime; any number of
/// observers then share its values (a side effect in the chain runs once per value). If the
/// source errors or completes, the state keeps its last value.
///
/// When `Value` is `Equatable`, a value equal to the state's latest one is not sent again
/// (neither to typed observers nor as a `vm.output`): a state publishes changes, as a UI
/// bound to it expects. Which `bind`/`accept` applies is chosen where they are called, by
/// the port's declared type: the unconstrained ones, used where `Value` is not known to be
/// `Equatable`, send every value.
///
/// A list of identified elements is a `State<IdentifiedList<Element>>`: its ``update(_:)``
/// and ``bind(_:update:)`` edit the list in place, and patch subscribers get the edits as
/// RFC 6902 operations instead of the list (see ``IdentifiedList``).
public final class State<Value>: ObservableType, PortBox, OutputPortBox {
    public typealias Element = Value

    /// Its summary, schema and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var facts: PortFacts
    /// The current value.
    public var value: Value { storedValue }
    /// Backs ``value``; written by ``emit(_:)`` while nobody observes the state, then by
    /// ``OutputFanOut/deliver(_:encode:)`` as each value goes out.
    ///
    /// (Unchecked exclusivity, here and on ``fanOut``: each is written in one assignment that
    /// calls no observer, and read in single expressions; no access spans a call that could
    /// re-enter. The dynamic checks ran on every `vm.send` → `vm.output`; their cost is in
    /// ViewModelDaemon.docc/Performance.md.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var storedValue: Value
    @usableFromInline var bindings = BindingStore()
    /// The encoding of its codec (its schema is in ``facts``).
    @usableFromInline let encode: (Value) -> JSONValue
    /// Delivers its values to its observers, typed and JSON; made by the first observer
    /// (``madeFanOut()``): most states of idle instances are never observed, and an object
    /// per state per instance was spent on them (`vmd-bench create`, RSS per idle
    /// Counter). It updates ``storedValue`` through its reference to this state rather than
    /// through a closure capturing it.
    ///
    /// Held without reference counting (see HeldFanOut.swift): retained once when made and
    /// released by `deinit`; it lives exactly as long as the state, which every caller of
    /// ``emit(_:)`` holds (its `accept`, its `bind` closure).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var fanOut: HeldFanOut<Value>?

    /// A state output encoded with `codec`, holding `initial` until its source says otherwise.
    ///
    /// Inlinable, like ``Input``'s: the view model's `Ports()` then keeps only the encoding
    /// of `codec` without copying and releasing the whole codec out of line
    /// for every instance. In an instance the kit makes, the summary and the schema are its
    /// type's, learned once: this builds no schema (see PortFacts.swift).
    @inlinable public init(_ summary: String = "", initial: Value, codec: ValueCodec<Value>) {
        self.facts = PortFactsSharing.claim()
            ?? PortFacts.output(kind: .state, summary: summary, codec: codec)
        self.storedValue = initial
        self.encode = codec.encode
        self.fanOut = nil
    }

    deinit {
        fanOut?.release()
    }

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
        bindings.keep(source.asObservable().subscribe(AnyObserver { event in
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
            fanOut.emit(value, encode: encode)
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

    func attach(facts: PortFacts, bag: DisposeBag) {
        if self.facts !== facts { self.facts = facts }
        bindings.attach(bag: bag)
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

    func observeJSON(_ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?) -> any Disposable {
        madeFanOut().observeJSON(handler, patches: patches)
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
        bindings.keep(source.asObservable().subscribe(AnyObserver { event in
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
