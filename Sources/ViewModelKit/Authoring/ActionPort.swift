import JSONCore
import ReactiveCore

/// An action of a view model, as clients see it (`vm.execute`): a typed input, a typed
/// element, and the `Action` that runs it, bound in `init`.
///
/// ```swift
/// let submit = ActionPort<Void, String>("Sign in with the typed email and password.")
/// …
/// let signIn = context.action(enabledIf: isValid) { (email: String, password: String) in
///     try await auth.signIn(email: email, password: password)
/// }
/// ports.submit.bind(signIn, with: credentials)   // executes with the latest credentials
/// ```
///
/// The action's rules apply unchanged: disabled while its `enabledIf` is false or (with the
/// default `exclusive` strategy) while it runs, errors reported as `ActionError`, and
/// disposing an execution cancels it. An unbound port is never enabled.
public final class ActionPort<Value, Element>: PortBox, ActionPortBox {
    /// Its summary, schemas and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var facts: PortFacts
    /// The input codec's decoding and the output codec's encoding (the halves an action port
    /// calls; the schemas are in ``facts``).
    @usableFromInline let decode: (JSONValue) throws(JSONDecodingError) -> Value
    @usableFromInline let encode: (Element) -> JSONValue
    /// Starts an execution of a bound action with a value and an optional progress observer.
    @usableFromInline typealias Run = (Value, ((ActionProgress) -> Void)?) -> Observable<Element>
    @usableFromInline var run: Run?
    /// The action ``bind(_:)`` bound, run without a closure around it (one allocation per
    /// action port per instance fewer); `run` is then `nil`.
    var boundAction: Action<Value, Element>?
    @usableFromInline var bindings = BindingStore()

    /// A port whose input and element use the given codecs.
    ///
    /// Inlinable (with the convenience initializers): the view model's `Ports()` calls it for
    /// every instance, and specialized in the app's module it builds the codecs without
    /// generic metadata lookups (measured with `.ci/instructions`, `create`). In an instance
    /// the kit makes, the summary and the schemas are its type's, learned once: this builds
    /// no schema (see PortFacts.swift).
    @inlinable
    public init(_ summary: String = "", input: ValueCodec<Value>, output: ValueCodec<Element>) {
        self.facts = PortFactsSharing.claim()
            ?? PortFacts.action(summary: summary, input: input, output: output)
        self.decode = input.decode
        self.encode = output.encode
    }

    /// What the action does, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Executions run `action` with the client's value.
    public func bind(_ action: Action<Value, Element>) {
        boundAction = action
        run = nil
    }

    /// Executions run `action` with `transform(value)`.
    public func bind<ActionInput>(_ action: Action<ActionInput, Element>, input transform: @escaping (Value) -> ActionInput) {
        boundAction = nil
        run = { value, onProgress in action.execute(transform(value), onProgress: onProgress) }
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
        if let boundAction { return boundAction.execute(value, onProgress: onProgress) }
        guard let run else { return .error(ActionError.notEnabled) }
        return run(value, onProgress)
    }

    fileprivate func keep(_ binding: any Disposable) {
        bindings.keep(binding)
    }

    fileprivate func setRun(_ run: @escaping Run) {
        boundAction = nil
        self.run = run
    }

    // MARK: PortBox

    var typed: TypedPort { .action(self) }

    func attach(facts: PortFacts, bag: DisposeBag) {
        if self.facts !== facts { self.facts = facts }
        bindings.attach(bag: bag)
    }

    func detach(from bag: DisposeBag) {
        run = nil
        boundAction = nil
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
