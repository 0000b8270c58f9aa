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

    /// What the input means, for people reading `vm.types`.
    public let summary: String
    /// The schema and decoding of its codec (an input never encodes after `init`).
    @usableFromInline let codec: PortDecoding<Value>
    @usableFromInline let defaultJSON: JSONValue?
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
    @usableFromInline var name: String

    /// An input with `codec`; an omitted value on the wire means `defaultValue` when given.
    @inlinable public init(_ summary: String = "", codec: ValueCodec<Value>, default defaultValue: Value? = nil) {
        self.summary = summary
        self.codec = PortDecoding(codec)
        self.defaultJSON = defaultValue.map(codec.encode)
        self.deliver = { subject, value in subject.onNext(value) }
        self.subject = PublishSubject()
        self.name = ""
    }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { name }

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

    var role: PortRole {
        let schema = defaultJSON.map { codec.schema.addingDefault($0) } ?? codec.schema
        return .input(schema: schema, defaultValue: defaultJSON)
    }

    var typed: TypedPort { .input(self) }

    func attach(name: String, bag: DisposeBag) {
        self.name = name
    }

    func push(json: JSONValue) throws(JSONDecodingError) {
        send(try codec.decode(json))
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
