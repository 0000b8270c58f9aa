import JSONCore
import ReactiveCore

/// An event output: something that happens (`loginSuccess`), with no current value, never
/// replayed to new subscribers (RxCocoa's `Signal`). Named `EventOutput` because
/// ReactiveCore's `Event` is the sequence grammar's event.
///
/// ```swift
/// let loginFailure = EventOutput<String>("Why the login failed, for a person.")
/// …
/// ports.loginFailure.bind(submit.errors.compactMap(\.failureMessage))
/// ```
///
/// The source is subscribed **once**, when bound, for the instance's lifetime; any number of
/// observers share its values. Errors and completion end the binding silently.
///
/// Values emitted while the view model's `init` runs are held and delivered right after the
/// instance was created, to the subscribers its creator attached by then (`vm.create`'s
/// `subscribe`, after the replay of the states; a parent's ``ChildViewModel`` handle; a
/// `ViewModelHarness` recording made before the scheduler's first turn); when nobody
/// subscribed they are dropped.
public final class EventOutput<Value>: ObservableType, PortBox, OutputPortBox {
    public typealias Element = Value

    /// Its summary, schema and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var facts: PortFacts
    /// The encoding of its codec (an output never decodes; its schema is in ``facts``).
    @usableFromInline let encode: (Value) -> JSONValue
    @usableFromInline var bindings = BindingStore()
    @usableFromInline lazy var fanOut = OutputFanOut<Value>()
    /// Set while the instance's `init` runs (and until its creator releases the held values).
    private var held: HeldEvents? {
        didSet { isHolding = held != nil }
    }
    /// `held != nil`, readable from the inlinable event path without exposing `HeldEvents`.
    @usableFromInline var isHolding = false

    /// An event output encoded with `codec`. In an instance the kit makes, the summary and
    /// the schema are its type's, learned once: this builds no schema (see PortFacts.swift).
    public init(_ summary: String = "", codec: ValueCodec<Value>) {
        self.facts = PortFactsSharing.claim()
            ?? PortFacts.output(kind: .event, summary: summary, codec: codec)
        self.encode = codec.encode
    }

    /// What the output means, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Subscribes `source` for the instance's lifetime; its elements are this output's values.
    /// (Observed by one closure, as `State.bind(_:)` explains.)
    @inlinable public func bind(_ source: some ObservableConvertibleType<Value>) {
        bindings.keep(source.asObservable().subscribe(AnyObserver { event in
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

    func attach(facts: PortFacts, bag: DisposeBag) {
        if self.facts !== facts { self.facts = facts }
        bindings.attach(bag: bag)
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
