import JSONCore
import ReactiveCore

/// An input of a view model: values a client pushes in (`vm.send`), seen by the view model
/// as an observable it binds in `init`.
///
/// Declare it as a stored property of the view model's ``ViewModelPorts``; the property's
/// name is the input's wire name:
///
/// ```swift
/// let email = Input<String>("What the user typed as email.")
/// let increment = Input<Int>("Add step to the count.", default: 1)
/// let decrement = Input<Void>("Subtract one.")
/// ```
///
/// Like RxSwift's `PublishSubject` inputs it never errors or completes, and late subscribers
/// do not see earlier values (combine it with `startWith` if a value is needed at once).
public final class Input<Value>: ObservableType, PortBox, InputPortBox {
    public typealias Element = Value

    /// Its summary, schema and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    @exclusivity(unchecked) @usableFromInline var facts: PortFacts
    /// The decoding of its codec (an input never encodes after `init`; its schema is in
    /// ``facts``).
    @usableFromInline let decode: (JSONValue) throws(JSONDecodingError) -> Value
    /// Assigned in the inlinable `init`, not by an initial value: an initial value is an
    /// out-of-line generic function, paying metadata lookups for every instance's ports.
    @usableFromInline let subject: PublishSubject<Value>
    /// Hands a value to the subject. Why a stored closure rather than a direct call: the kit
    /// reaches `push(json:)` through `any InputPortBox`, where `Value` is unknown, and the
    /// unspecialized subject pays generic metadata lookups on every event (~1,700 instructions
    /// per `vm.send`, measured with callgrind). This closure is formed in `init`, which a view
    /// model's `Ports()` calls with a concrete `Value`; `init` is `@inlinable`, so the app's
    /// module specializes it there; it captures nothing, so it costs no allocation.
    @usableFromInline let deliver: (PublishSubject<Value>, Value) -> Void

    /// An input with `codec`; an omitted value on the wire means `defaultValue` when given.
    ///
    /// In an instance the kit makes, the summary, the schema and the default are its type's,
    /// learned once: this builds neither (see PortFacts.swift).
    @inlinable public init(_ summary: String = "", codec: ValueCodec<Value>, default defaultValue: Value? = nil) {
        self.facts = PortFactsSharing.claim()
            ?? PortFacts.input(summary: summary, schema: codec.makeSchema(), default: defaultValue.map(codec.encode))
        self.decode = codec.decode
        self.deliver = { subject, value in subject.onNext(value) }
        self.subject = PublishSubject()
    }

    /// What the input means, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Pushes `value` as if a client had sent it (tests and the kit's host use this).
    @inlinable public func send(_ value: Value) {
        deliver(subject, value)
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        subject.subscribe(observer)
    }

    @inlinable public func asObservable() -> Observable<Value> {
        subject.asObservable()
    }

    // MARK: PortBox

    var typed: TypedPort { .input(self) }

    func attach(facts: PortFacts, bag: DisposeBag) {
        if self.facts !== facts { self.facts = facts }
    }

    func push(json: JSONValue) throws(JSONDecodingError) {
        send(try decode(json))
    }
}

extension Input where Value: JSONConvertible {
    /// An input of a `JSONConvertible` type; an omitted value on the wire means
    /// `defaultValue` when given (published as the schema's `default`).
    @inlinable public convenience init(_ summary: String = "", default defaultValue: Value? = nil) {
        self.init(summary, codec: .json, default: defaultValue)
    }
}

extension Input where Value == Void {
    /// An input that carries nothing (a tap): `{"type": "null"}` on the wire.
    @inlinable public convenience init(_ summary: String = "") {
        self.init(summary, codec: .void)
    }
}
