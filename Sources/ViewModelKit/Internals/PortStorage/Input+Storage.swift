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
///
/// It is its own subject (a subclass of ReactiveCore's `ObserverHub`, as `PublishSubject` is):
/// one object per input instead of an input holding a subject, made and freed with every
/// instance (ViewModelDaemon.docc/Performance.md).
public final class Input<Value>: ObserverHub<Value>, ObservableType, PortBox, InputPortBox {
    public typealias Element = Value

    /// Its summary, schema, wire name and delivery (always an `InputFacts<Value>`, see
    /// InputFacts.swift): the ones its type's layout shares among all instances (see
    /// PortFacts.swift), or its own when made outside an instance.
    ///
    /// Held without reference counting on the read path (see HeldInputFacts.swift), released
    /// when replaced and by `deinit`.
    /// (Unchecked exclusivity: assigned only by `init` and `attach`, in one assignment, and
    /// otherwise read in single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var heldFacts: HeldInputFacts
    /// The decoding of its codec (an input never encodes after `init`; its schema is in
    /// ``facts``).
    @usableFromInline let decode: (JSONValue) throws(JSONDecodingError) -> Value
    /// Its codec's reader of values from their bytes, if it has one (``ValueCodec/read``):
    /// the instance's own, read without a cast (its closure captures nothing, so holding it
    /// costs an instance no allocation).
    @usableFromInline let read: ((inout JSONByteReader) throws(JSONDecodingError) -> Value)?

    /// An input with `codec`; an omitted value on the wire means `defaultValue` when given.
    /// A `secret` input (a password) publishes `"writeOnly": true` in its schema, and its
    /// values are shown as `"<redacted>"` to monitors and in tapes recorded from them
    /// (Protocol/PROTOCOL.md, section 18, "Secrecy").
    ///
    /// In an instance the kit makes, the summary, the schema and the default are its type's,
    /// learned once: this builds neither (see PortFacts.swift).
    @inlinable public init(
        _ summary: String = "", codec: ValueCodec<Value>, default defaultValue: Value? = nil, secret: Bool = false
    ) {
        if let claimed = PortFactsSharing.claim(),
           ObjectIdentifier(type(of: claimed)) == ObjectIdentifier(InputFacts<Value>.self) {
            self.heldFacts = HeldInputFacts(retaining: claimed)
        } else {
            self.heldFacts = HeldInputFacts(retaining: InputFacts<Value>(
                summary: summary,
                role: PortFacts.inputRole(schema: codec.makeSchema(), default: defaultValue.map(codec.encode), secret: secret),
                name: "", declaredCodec: codec, deliver: { input, value in input.publish(value) }))
        }
        self.decode = codec.decode
        self.read = codec.read
        super.init()
    }

    deinit {
        heldFacts.release()
    }
}
