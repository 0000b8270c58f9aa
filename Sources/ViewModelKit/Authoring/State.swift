import JSONCore
import ReactiveCore

/// A state output: it always has a current value (`vm.get` reads it, new subscribers get it
/// first), like RxCocoa's `Driver`: it never errors, and it is shared.
///
/// Declare it in the view model's ``ViewModelPorts`` with the value it has before the view
/// model says otherwise, then ``bind(_:)`` a source to it in `init`:
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
public final class State<Value>: ObservableType, PortBox, OutputPortBox {
    public typealias Element = Value

    /// Its summary, schema and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    @exclusivity(unchecked) @usableFromInline var facts: PortFacts
    /// The current value.
    public var value: Value { storedValue }
    /// Backs ``value``; written by ``OutputFanOut/deliver(_:)`` as each value goes out.
    ///
    /// (Unchecked exclusivity, here and on `cachedJSON`: both are written only by the
    /// fan-out's `deliver`, each in one assignment that calls no observer, and read in single
    /// expressions; no access spans a call that could re-enter. The dynamic checks were ~230
    /// instructions of every `vm.send` → `vm.output`, measured with `.ci/instructions`.)
    @exclusivity(unchecked) @usableFromInline var storedValue: Value
    @exclusivity(unchecked) @usableFromInline var cachedJSON: JSONValue?
    @usableFromInline var bindings = BindingStore()
    /// It updates ``storedValue`` and ``cachedJSON`` through its reference to this state
    /// rather than through two closures capturing it (two allocations per state per instance
    /// fewer). Made with the state, not lazily: a constant is read on every value without a
    /// getter call and without retaining and releasing it (~200 instructions of every
    /// `vm.send` → `vm.output` of a bound state, measured with callgrind); a bound state,
    /// which nearly every state is, made it at its first value anyway.
    @usableFromInline let fanOut: OutputFanOut<Value>

    /// A state output encoded with `codec`, holding `initial` until its source says otherwise.
    ///
    /// Inlinable, like ``Input``'s: the view model's `Ports()` then keeps only the encoding
    /// of `codec` (in ``fanOut``) without copying and releasing the whole codec out of line
    /// for every instance. In an instance the kit makes, the summary and the schema are its
    /// type's, learned once: this builds no schema (see PortFacts.swift).
    @inlinable public init(_ summary: String = "", initial: Value, codec: ValueCodec<Value>) {
        self.facts = PortFactsSharing.claim()
            ?? PortFacts.output(kind: .state, summary: summary, schema: codec.makeSchema())
        self.storedValue = initial
        fanOut = OutputFanOut(encode: codec.encode)
        fanOut.state = self
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
            if case .next(let value) = event { self.fanOut.emit(value) }
        }))
    }

    /// Sets the value now, as if a bound source had emitted it.
    @inlinable public func accept(_ value: Value) {
        fanOut.emit(value)
    }

    /// The current value, then every new one.
    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        observer.onNext(value)
        return fanOut.subscribeTyped(AnyObserver(observer))
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

    var currentJSON: JSONValue? {
        if let cachedJSON { return cachedJSON }
        let encoded = fanOut.encode(value)
        cachedJSON = encoded
        return encoded
    }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void) -> any Disposable {
        fanOut.observeJSON(handler)
    }

    func closeJSON() {
        fanOut.closeJSON()
    }
}

extension State where Value: JSONConvertible {
    /// A state output of a `JSONConvertible` type, holding `initial` until its source says
    /// otherwise.
    public convenience init(_ summary: String = "", initial: Value) {
        self.init(summary, initial: initial, codec: .json)
    }
}
