import JSONCore
import ReactiveCore

/// What a port looks like on the wire, before it has a name (the name is the property's).
enum PortRole: Equatable {
    case input(schema: JSONValue, defaultValue: JSONValue?)
    case output(kind: OutputKind, schema: JSONValue)
    case action(input: JSONValue, output: JSONValue)
}

/// The kit's untyped view of a port. Every port class conforms; the host only ever talks to
/// ports through these protocols, so it never needs their value types.
protocol PortBox: AnyObject, SendableMetatype {
    var summary: String { get }
    var role: PortRole { get }
    /// The port as what it is (no dynamic casts when an instance is wired).
    var typed: TypedPort { get }
    /// Called once, before the view model's `init`: the port learns its wire name and the
    /// instance's lifetime bag, where its bindings go.
    func attach(name: String, bag: DisposeBag)
    /// Called when the instance is destroyed, after its bag was disposed: the port lets go
    /// of what it was bound to (an action port drops its action, breaking cycles through
    /// closures the author wrote).
    func detach()
    /// Called with ``attach(name:bag:)`` when the instance holds the events its `init` emits
    /// (``HeldEvents``), and with `nil` after `init` if it held none; only event outputs act
    /// on it.
    func holdEvents(in held: HeldEvents?)
}

extension PortBox {
    func detach() {}
    func holdEvents(in held: HeldEvents?) {}
}

/// A port by kind.
enum TypedPort {
    case input(any InputPortBox)
    case output(any OutputPortBox)
    case action(any ActionPortBox)

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
}

protocol OutputPortBox: PortBox {
    /// The current value, encoded (state outputs only; `nil` for events).
    var currentJSON: JSONValue? { get }
    /// Live values, encoded once per value however many handlers watch.
    func observeJSON(_ handler: @escaping (JSONValue) -> Void) -> any Disposable
    /// Drops every JSON observer (the instance is going away).
    func closeJSON()
}

protocol ActionPortBox: PortBox {
    /// Starts an execution with `json` (already valid against the published schema).
    func execute(json: JSONValue) throws(JSONDecodingError) -> Observable<JSONValue>
}

/// Where a port keeps its bindings: the instance's bag once attached. A port used on its
/// own (never attached) keeps them itself, so nothing is silently dropped.
@usableFromInline struct BindingStore {
    /// Weak: the bag's subscriptions hold the port, so a strong reference would be a cycle.
    private weak var bag: DisposeBag?
    private var ownBindings: [any Disposable] = []
    private(set) var name = ""

    mutating func attach(name: String, bag: DisposeBag) {
        self.name = name
        self.bag = bag
        for binding in ownBindings { bag.insert(binding) }
        ownBindings = []
    }

    @usableFromInline mutating func keep(_ binding: any Disposable) {
        if let bag {
            bag.insert(binding)
        } else {
            ownBindings.append(binding)
        }
    }
}
