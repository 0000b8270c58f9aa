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
public final class State<Value>: ObservableType, PortBox, OutputPortBox, BindingKeeping {
    public typealias Element = Value

    /// Its summary, schema and wire name: the ones its type's layout shares among all
    /// instances (see PortFacts.swift), or its own when made outside an instance.
    /// (Unchecked exclusivity: assigned only by `attach`, in one assignment, and otherwise
    /// read in single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var facts: PortFacts
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
    /// Where its bindings go (see BindingStore in PortBox.swift). (Unchecked exclusivity: every
    /// access is one read or one call of a `BindingStore` method, none of which calls anything
    /// outside the standard library; the bag and the bindings are called after it ends.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var bindings = BindingStore()
    /// The encoding of its codec (its schema is in ``facts``).
    @usableFromInline let encode: (Value) -> JSONValue
    /// Its codec's writer of JSON text, when the type writes itself: the fan-out then hands a
    /// lone JSON watcher the bytes, without a tree (see OutputFanOut.swift).
    @usableFromInline let writeText: ((Value, inout [UInt8]) -> Void)?
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
        self.writeText = codec.writeText
        self.fanOut = nil
    }

    deinit {
        fanOut?.release()
    }
}
