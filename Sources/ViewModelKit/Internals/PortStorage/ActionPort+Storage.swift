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
public final class ActionPort<Value, Element>: PortBox, ActionPortBox, BindingKeeping {
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
    /// How executions run once bound; `nil` while unbound (and once detached).
    ///
    /// One internal property, not a `run` closure beside a bound action: binding and
    /// detaching write it once, executing reads it once, and the optimizer, seeing every
    /// access, checks none of them dynamically (ViewModelDaemon.docc/Performance.md).
    var execution: Execution?

    /// What a bound port runs.
    enum Execution {
        /// The action ``bind(_:)`` bound, run without a closure around it (one allocation per
        /// action port per instance fewer).
        case action(Action<Value, Element>)
        /// A closure running an action with a transformed input (or the latest of another
        /// source).
        case run(Run)
    }
    /// Where its bindings go (see BindingStore in PortBox.swift). (Unchecked exclusivity: every
    /// access is one read or one call of a `BindingStore` method, none of which calls anything
    /// outside the standard library; the bag and the bindings are called after it ends.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
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
}
