import JSONCore
import ReactiveCore

/// What a port looks like on the wire, before it has a name (the name is the property's).
@usableFromInline enum PortRole: Equatable, Sendable {
    case input(schema: JSONValue, defaultValue: JSONValue?)
    case output(kind: OutputKind, schema: JSONValue)
    case action(input: JSONValue, output: JSONValue)
}

/// The kit's untyped view of a port. Every port class conforms; the host only ever talks to
/// ports through these protocols, so it never needs their value types.
protocol PortBox: AnyObject, SendableMetatype {
    /// Its summary, role and wire name (shared by the ports of every instance once attached).
    var facts: PortFacts { get }
    /// The port as what it is (no dynamic casts when an instance is wired).
    var typed: TypedPort { get }
    /// Called once, before the view model's `init`: the port takes the facts of its declared
    /// position, `shared[position]` (its wire name among them), and the instance's lifetime
    /// bag, where its bindings go. Returns ``typed``, so that the layout reading the port
    /// makes one call for both (PortLayout.swift). Given the layout's list rather than the
    /// facts, so that a port already holding them (the usual case) compares them without the
    /// caller retaining and releasing them around the call.
    @discardableResult func attach(facts shared: [PortFacts], at position: Int, bag: DisposeBag) -> TypedPort
    /// Called when the instance is destroyed, after its bag (`bag`) was disposed: the port
    /// lets go of what it was bound to (an action port drops its action, breaking cycles
    /// through closures the author wrote) and of the bag.
    func detach(from bag: DisposeBag)
    /// Called with ``attach(facts:at:bag:)`` when the instance holds the events its `init` emits
    /// (``HeldEvents``), and with `nil` after `init` if it held none; only event outputs act
    /// on it.
    func holdEvents(in held: HeldEvents?)
}

extension PortBox {
    func detach(from bag: DisposeBag) {}
    func holdEvents(in held: HeldEvents?) {}
}

/// A port by kind.
enum TypedPort {
    case input(any InputPortBox)
    case output(any OutputPortBox)
    case action(any ActionPortBox)

    /// ``PortBox/attach(facts:at:bag:)`` of the port, called on its own kind: no existential
    /// of the port is made for it (a retain and a release per port of every instance built).
    func attach(facts shared: [PortFacts], at position: Int, bag: DisposeBag) {
        switch self {
        case .input(let input): input.attach(facts: shared, at: position, bag: bag)
        case .output(let output): output.attach(facts: shared, at: position, bag: bag)
        case .action(let action): action.attach(facts: shared, at: position, bag: bag)
        }
    }

    /// ``PortBox/detach(from:)`` of the port, called on its own kind (as ``attach(facts:at:bag:)``).
    func detach(from bag: DisposeBag) {
        switch self {
        case .input(let input): input.detach(from: bag)
        case .output(let output): output.detach(from: bag)
        case .action(let action): action.detach(from: bag)
        }
    }

    /// The port whatever its kind.
    var box: any PortBox {
        switch self {
        case .input(let input): input
        case .output(let output): output
        case .action(let action): action
        }
    }
}

protocol InputPortBox: PortBox {
    /// Decodes `json` (already valid against the published schema) and pushes it.
    func push(json: JSONValue) throws(JSONDecodingError)
    /// Reads the value in `bytes` (nothing else but whitespace, at nesting `depth` of its
    /// document, within `maxDepth`) with its codec's reader and pushes it; `false` (nothing
    /// pushed) when the codec has none. Throws when the reader declines the value, which is
    /// then to be parsed and pushed with ``push(json:)`` after the schema check.
    func push(reading bytes: UnsafeBufferPointer<UInt8>, depth: Int, maxDepth: Int) throws(JSONDecodingError) -> Bool
    /// Whether ``push(reading:depth:maxDepth:)`` can read at all (the codec has a reader).
    var readsBytes: Bool { get }
}

protocol OutputPortBox: PortBox {
    /// The current value, encoded (state outputs only; `nil` for events).
    var currentJSON: JSONValue? { get }
    /// The current value's JSON text appended to `buffer` (`vm.get`); `false` for events.
    func appendCurrentJSON(to buffer: inout [UInt8]) -> Bool
    /// Live values, encoded once per value however many handlers watch; a change the output
    /// says as a patch goes to `patches` when given (see ``JSONWatcher/patchHandler``).
    func observeJSON(_ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?) -> any Disposable
    /// As above, and values the output can write as text without a tree go to `text` instead
    /// (see ``JSONWatcher/textHandler``).
    func observeJSON(
        _ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?, text: @escaping JSONWatcher.TextHandler
    ) -> any Disposable
    /// Drops every JSON observer (the instance is going away).
    func closeJSON()
}

extension OutputPortBox {
    /// Appends the current value's JSON text to `buffer`; `false` (nothing appended) for an
    /// output with no current value (events). States that write their own text override it.
    func appendCurrentJSON(to buffer: inout [UInt8]) -> Bool {
        guard let value = currentJSON else { return false }
        JSONSerializer.append(value, to: &buffer)
        return true
    }

    /// Outputs that never write text (events) take trees only.
    func observeJSON(
        _ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)?, text: @escaping JSONWatcher.TextHandler
    ) -> any Disposable {
        observeJSON(handler, patches: patches)
    }
}

protocol ActionPortBox: PortBox {
    /// Starts an execution with `json` (already valid against the published schema), telling
    /// `onProgress` of its progress.
    func execute(json: JSONValue, onProgress: ((ActionProgress) -> Void)?) throws(JSONDecodingError) -> Observable<JSONValue>
}

/// Where a port keeps its bindings: the instance's bag once attached. A port used on its
/// own (never attached) keeps them itself, so nothing is silently dropped; once its instance
/// is gone (``detach(from:)``), a new binding is disposed at once, as the disposed bag would.
///
/// No method calls anything outside the standard library: the bag is handed back to the
/// port, which inserts into it (or disposes a refused binding) after its access to the
/// store ended (``BindingKeeping``). So no access to a port's `bindings` is open while other
/// code runs, which lets the ports declare the property without dynamic exclusivity checks
/// (Internals/PortStorage; two per `vm.create` and per `vm.destroy` of Counter, and one per
/// `bind`: ViewModelDaemon.docc/Performance.md).
@usableFromInline struct BindingStore {
    /// Unowned, not strong: the bag's subscriptions hold the port, so a strong reference
    /// would be a cycle. Not weak either: a weak reference gives the bag a side table, an
    /// allocation per instance (and its cost on every `vm.create` and `vm.destroy`, see
    /// ViewModelDaemon.docc/Performance.md), where unowned costs a count in the bag's own
    /// header. Safe (the checked form, never `unowned(unsafe)`) because the bag outlives every
    /// read: an instance's bag lives as long as its instance (`InstanceRuntime.bag`), and
    /// closing the instance detaches every port (`InstanceRuntime.tearDown()`), which clears
    /// this after the bag was disposed; a testing harness holds its bag as long as itself
    /// (ViewModelHarness.swift in ViewModelTesting). Only a port kept by other code beyond
    /// both, then bound, would read it after the bag is gone: that traps (the checked
    /// `unowned`) rather than keeping the binding alive forever.
    private unowned var bag: DisposeBag?
    /// Bindings made before the port was attached; `nil` once detached.
    private var ownBindings: [any Disposable]? = []

    /// The bag new bindings go to: the instance's, once attached (`nil` before and after).
    @usableFromInline var attachedBag: DisposeBag? { bag }

    /// Attaches to `bag`; returns the bindings made before, which the caller inserts into it.
    mutating func attach(bag: DisposeBag) -> [any Disposable] {
        self.bag = bag
        guard let bindings = ownBindings, !bindings.isEmpty else { return [] }
        ownBindings = []
        return bindings
    }

    /// The instance whose bag is `bag` is gone (and `bag` disposed): later bindings are
    /// disposed at once. A port attached to another instance's bag since (one port shared by
    /// several instances) keeps that one.
    mutating func detach(from bag: DisposeBag) {
        guard self.bag === bag else { return }
        self.bag = nil
        ownBindings = nil
    }

    /// Keeps `binding` while not attached; returns it when detached (the caller disposes it).
    @usableFromInline mutating func hold(_ binding: any Disposable) -> (any Disposable)? {
        guard ownBindings != nil else { return binding }
        ownBindings?.append(binding)
        return nil
    }
}

/// A port that keeps bindings in a ``BindingStore`` (states, event outputs, action ports).
@usableFromInline protocol BindingKeeping: AnyObject {
    var bindings: BindingStore { get set }
}

extension BindingKeeping {
    /// Keeps `binding` for the instance's lifetime (see ``BindingStore``): each access to
    /// `bindings` ends before the bag or the binding is called.
    @inlinable func keep(_ binding: any Disposable) {
        if let bag = bindings.attachedBag {
            bag.insert(binding)
        } else if let refused = bindings.hold(binding) {
            refused.dispose()
        }
    }

    /// Attaches the store to `bag`, then moves the bindings made before into it. (Inlined
    /// into each port's `attach`, where `bindings` is that class's property: called, it ran
    /// unspecialized, through the protocol's accessors.)
    @inline(__always) func attachBindings(to bag: DisposeBag) {
        let earlier = bindings.attach(bag: bag)
        for binding in earlier { bag.insert(binding) }
    }
}
