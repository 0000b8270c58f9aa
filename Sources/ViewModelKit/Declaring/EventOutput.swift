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

    /// What the output means, for people reading `vm.types`.
    public let summary: String
    let codec: ValueCodec<Value>
    private var bindings = BindingStore()
    private lazy var fanOut = OutputFanOut<Value>(encode: codec.encode)
    /// Set while the instance's `init` runs (and until its creator releases the held values).
    private var held: HeldEvents?

    /// An event output encoded with `codec`.
    public init(_ summary: String = "", codec: ValueCodec<Value>) {
        self.summary = summary
        self.codec = codec
        PortCollector.record(self)
    }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { bindings.name }

    /// Subscribes `source` for the instance's lifetime; its elements are this output's values.
    public func bind(_ source: some ObservableConvertibleType<Value>) {
        bindings.keep(source.asObservable().subscribe(onNext: { value in self.emit(value) }))
    }

    /// Emits `value` now, as if a bound source had.
    public func accept(_ value: Value) {
        emit(value)
    }

    private func emit(_ value: Value) {
        if let held {
            if held.holdsNewEvents { return held.hold { self.fanOut.emit(value) } }
            // After `init`: what `init` emitted goes first, then this value, then nothing
            // is held any more.
            held.release()
            self.held = nil
        }
        fanOut.emit(value)
    }

    /// Every value from now on (nothing is replayed).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        fanOut.subscribeTyped(AnyObserver(observer))
    }

    public func asObservable() -> Observable<Value> {
        Observable.create { observer in self.subscribe(observer) }
    }

    // MARK: PortBox

    var role: PortRole { .output(kind: .event, schema: codec.schema) }

    var typed: TypedPort { .output(self) }

    func attach(name: String, bag: DisposeBag) {
        bindings.attach(name: name, bag: bag)
    }

    func holdEvents(in held: HeldEvents?) {
        self.held = held
    }

    var currentJSON: JSONValue? { nil }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void) -> any Disposable {
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
