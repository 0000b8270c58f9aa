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
public final class EventOutput<Value>: ObservableType, PortBox, OutputPortBox, BindingKeeping {
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
    /// Where its bindings go (see BindingStore in PortBox.swift). (Unchecked exclusivity: every
    /// access is one read or one call of a `BindingStore` method, none of which calls anything
    /// outside the standard library; the bag and the bindings are called after it ends.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var bindings = BindingStore()
    @usableFromInline lazy var fanOut = OutputFanOut<Value>()
    /// Set while the instance's `init` runs (and until its creator releases the held values).
    var held: HeldEvents? {
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
}
