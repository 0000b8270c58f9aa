import JSONCore
import ReactiveCore

/// What a view model's `init` gets besides its ports: its id, creation arguments, services,
/// the scheduler its graph lives on, its lifetime bag, and a way to open child instances.
///
/// Everything here is used on the scheduler's thread (the daemon's loop), like the graph.
public struct ViewModelContext<VM: ViewModel> {
    /// The instance's id (`"login-1"`).
    public let id: String
    /// The decoded creation arguments (omitted members took their defaults).
    public let args: VM.Arguments
    /// The services injected when the type was registered (or by the test).
    public let services: VM.Services
    /// The instance's scheduler: async work hands its results back through it.
    public let scheduler: any SerialScheduler
    /// The instance's lifetime: disposed when the instance is destroyed. Ports put their
    /// bindings here already; add only subscriptions that exist for their side effect.
    public let bag: DisposeBag
    let openChild: (_ type: String, _ args: JSONValue) throws(ViewModelError) -> String

    /// A context from its parts (the host and ``ViewModelHarness`` build these).
    public init(
        id: String,
        args: VM.Arguments,
        services: VM.Services,
        scheduler: any SerialScheduler,
        bag: DisposeBag,
        openChild: @escaping (_ type: String, _ args: JSONValue) throws(ViewModelError) -> String
    ) {
        self.id = id
        self.args = args
        self.services = services
        self.scheduler = scheduler
        self.bag = bag
        self.openChild = openChild
    }

    /// Creates a child instance of `type` with `args` (a new scene, like SendList's
    /// receipt) and returns its id. The child is destroyed with this instance, before it.
    public func createChild(type: String, args: JSONValue = [:]) throws(ViewModelError) -> String {
        try openChild(type, args)
    }

    /// Creates a child instance of `type` with typed `args`; returns its id.
    public func createChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments) throws(ViewModelError) -> String {
        try openChild(Child.typeName, args.jsonValue)
    }

    /// An ``Action`` whose work is an `async` service call, its result hopping back onto
    /// this instance's scheduler. One execution at a time; allowed while `enabledIf`'s
    /// latest value is `true`.
    public func action<Input: Sendable, Element: Sendable>(
        enabledIf: some ObservableConvertibleType<Bool> = Observable.just(true),
        _ work: @escaping @Sendable (Input) async throws -> Element
    ) -> Action<Input, Element> {
        Action(enabledIf: enabledIf.asObservable(), scheduler: scheduler, work: work)
    }
}
