import JSONCore

/// A view-model type that vmd can host: its ports (inputs, outputs, actions) are declared
/// once in ``Ports``, and its `init` binds them, following the MVVM recipe (everything
/// bound in `init`, services injected, no state outside the reactive graph).
///
/// The wire description (`vm.types`) is derived from the declaration alone, without creating
/// an instance or touching a service: names are the property names of ``Ports``, kinds and
/// schemas come from the port types, summaries from their first argument, the creation
/// arguments' schema from ``Arguments``.
///
/// `SendableMetatype`: the registry is `Sendable` (built at start-up, handed to the loop
/// thread), and its factory refers to the type; the conformance must not be actor-isolated.
///
/// ```swift
/// struct Counter: ViewModel {
///     static let summary = "A number you can step up and down."
///     struct Ports: ViewModelPorts {
///         let increment = Input<Int>("Add step to the count.", default: 1)
///         let count = State<Int>("The current count.", initial: 0)
///     }
///     init(ports: Ports, context: Context) {
///         ports.count.bind(ports.increment.scan(0, accumulator: +))
///     }
/// }
/// ```
public protocol ViewModel: SendableMetatype {
    /// The declaration of the inputs, outputs and actions, in wire order.
    associatedtype Ports: ViewModelPorts
    /// The creation arguments (`vm.create`'s `args`); their `jsonSchema` is published as is.
    /// A ``ViewModelArguments`` struct writes each default once, in its properties.
    associatedtype Arguments: JSONConvertible = NoArguments
    /// What the view model is given to do its work (an authentication service, a store).
    /// Services are called from `async` work, hence `Sendable`.
    associatedtype Services: Sendable = Void
    /// What `init` receives besides the ports.
    typealias Context = ViewModelContext<Self>

    /// The type's wire name; defaults to the Swift type's name.
    static var typeName: String { get }
    /// One sentence for people reading `vm.types`.
    static var summary: String { get }

    /// Binds every port. Runs on the host's scheduler thread, like everything the view
    /// model does afterwards. Values its event outputs emit here are held and delivered
    /// right after creation to the subscribers the creator attached (see ``EventOutput``).
    init(ports: Ports, context: Context)
}

extension ViewModel {
    // `_typeName(_:qualified: false)` is what `String(describing:)` prints for a type, without
    // the protocol-conformance casts `String(describing:)` tries first (each a first-time scan
    // at start-up; 6.4% of exec-to-first-answer instructions, Performance.md).
    public static var typeName: String { _typeName(Self.self, qualified: false) }
}

/// The ports of a view model: a struct whose stored properties are ``Input``s, ``State``s,
/// ``EventOutput``s and ``ActionPort``s, each with an inline initializer (so `init()` exists
/// and creates them). The kit reflects it with `Mirror`: property names are wire names,
/// declaration order is wire order. Any other stored property is a declaration error.
/// (`SendableMetatype`, like ``ViewModel``: the registry's `Sendable` factory names the type.)
public protocol ViewModelPorts: SendableMetatype {
    init()
}

/// Creation arguments of a view model that takes none: `{}` is the only valid value.
public struct NoArguments: JSONConvertible, Sendable, Equatable {
    public init() {}

    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        try members.rejectUnknownMembers(allowed: [])
    }

    public var jsonValue: JSONValue { [:] }

    /// `{"type": "object", "properties": {}, "additionalProperties": false}`.
    public static var jsonSchema: JSONValue { JSONSchemaBuilder.object([:]) }
}
