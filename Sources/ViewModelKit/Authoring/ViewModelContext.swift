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
    /// The instance's scheduler: async work hands its results back through it, and
    /// ``call(after:timeout:file:line:_:)`` puts its delays and timeouts on it.
    public var scheduler: any SerialScheduler { environment.scheduler }
    /// The instance's lifetime: disposed when the instance is destroyed. Ports put their
    /// bindings here already; add only subscriptions that exist for their side effect.
    public let bag: DisposeBag
    /// Where ``saved(_:default:version:migrate:)`` values are kept (`nil`: nothing is saved).
    @usableFromInline var savedState: SavedState? { instanceParts.savedState }
    /// The scheduler, the child opener and the service clock, shared by every instance of
    /// the host (InstanceEnvironment.swift).
    @usableFromInline var environment: InstanceEnvironment { instanceParts.environment }
    /// ``savedState`` and ``environment``, stored as one property so that the context has
    /// five: with six, the view model's module destroyed the context after `init` through its
    /// generic value witness, which looks the context's metadata up (the first time, for each
    /// view-model type, a metadata instantiation by mangled name); with five it releases the
    /// fields in place (ViewModelDaemon.docc/Performance.md).
    @usableFromInline let instanceParts: (savedState: SavedState?, environment: InstanceEnvironment)

    var children: any ChildOpening { environment.children }
    /// The clock behind ``clock``, and who watches service calls (ViewModelContext+Clock.swift).
    var serviceClock: ServiceClock { environment.serviceClock }

    /// A context from its parts (the testing harness builds these).
    package init(
        id: String,
        args: VM.Arguments,
        services: VM.Services,
        scheduler: any SerialScheduler,
        bag: DisposeBag,
        children: any ChildOpening,
        serviceClock: ServiceClock = .continuous,
        savedState: SavedState? = nil
    ) {
        self.init(
            id: id, args: args, services: services, bag: bag, savedState: savedState,
            environment: InstanceEnvironment(scheduler: scheduler, children: children, serviceClock: serviceClock))
    }

    /// A context sharing `environment` with the host's other instances (the host's factory).
    @inlinable init(id: String, args: VM.Arguments, services: VM.Services, bag: DisposeBag, savedState: SavedState?, environment: InstanceEnvironment) {
        self.id = id
        self.args = args
        self.services = services
        self.bag = bag
        self.instanceParts = (savedState, environment)
    }

    /// Creates a child instance of the type registered as `type` with `args` (a new scene)
    /// and returns its id. The child is destroyed with this instance, before it.
    ///
    /// Every `createChild` takes an `id` for the child (`"room-general"`), which clients can
    /// then name without asking this instance; it must be free (else `instanceExists`) and,
    /// in a daemon, follow `vm.create`'s rule for ids (else `invalidValue`). Without one the
    /// child gets a generated id (`"receipt-1"`).
    public func createChild(type: String, args: JSONValue = [:], id childID: String? = nil) throws(ViewModelError) -> String {
        try children.openChild(type: type, args: args, parent: id, id: childID)
    }

    /// Creates a child instance of `type` with typed `args` and returns a typed handle on
    /// it: observe its outputs, push its inputs, execute its actions, destroy it.
    ///
    /// The child is a real instance (in the daemon: visible in `vm.list` with this instance
    /// as its parent, and destroyed with it, before it); `type` must be registered with the
    /// same host. Observers the caller attaches before returning to the scheduler receive the
    /// events the child emitted during its own `init`.
    public func createChild<Child: ViewModel>(
        _ type: Child.Type, args: Child.Arguments, id childID: String? = nil
    ) throws(ViewModelError) -> ChildViewModel<Child> {
        try children.openChild(type, args: args, parent: id, id: childID)
    }

    /// Creates a child instance of `type` with its default arguments (decoded from `{}`).
    public func createChild<Child: ViewModel>(_ type: Child.Type, id childID: String? = nil) throws(ViewModelError) -> ChildViewModel<Child> {
        let args: Child.Arguments
        do throws(JSONDecodingError) {
            args = try Child.Arguments(json: [:])
        } catch {
            throw .invalidValue(.args(type: Child.typeName), path: error.path, expected: error.expected, got: error.got)
        }
        return try children.openChild(type, args: args, parent: id, id: childID)
    }

    /// An observable that runs `work` (an `async` service call) once per subscription and
    /// delivers its single result, or its error, on this instance's scheduler.
    ///
    /// - Parameters:
    ///   - latency: a wait before `work` starts (a simulated service latency), measured on
    ///     the scheduler: under a `TestScheduler` it is exact virtual time.
    ///   - timeout: the longest the whole call (latency included) may take, also on the
    ///     scheduler; past it the call fails with ``ViewModelTimeoutError`` and the `Task`
    ///     running `work` is cancelled.
    ///   - file: where the call is made (the default), for the harness's messages.
    ///   - line: the line of that file.
    ///   - work: the service call.
    ///
    /// Disposing the subscription during the latency cancels the timer; afterwards it
    /// cancels the task. Everything the kit waits for is virtual under test, and so is what
    /// `work` sleeps on ``clock``; only other awaiting (a real `Task.sleep`, a socket) is real
    /// time. Under test the harness tracks the call, named in its messages by `file` and
    /// `line` (ViewModelTesting's `settle()`).
    public func call<Result: Sendable>(
        after latency: Duration = .zero,
        timeout: Duration? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () async throws -> Result
    ) -> Observable<Result> {
        Self.call(named: "context.call at \(file):\(line)", on: scheduler, serviceClock, after: latency, timeout: timeout, work)
    }

    /// An `Action` whose work is an `async` service call, its result hopping back onto
    /// this instance's scheduler. One execution at a time; allowed while `enabledIf`'s
    /// latest value is `true`. `latency` and `timeout` work as in ``call(after:timeout:file:line:_:)``;
    /// a timed-out execution fails with ``ViewModelTimeoutError`` and its task is cancelled.
    public func action<Input: Sendable, Element: Sendable>(
        enabledIf: some ObservableConvertibleType<Bool> = Observable.just(true),
        after latency: Duration = .zero,
        timeout: Duration? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (Input) async throws -> Element
    ) -> Action<Input, Element> {
        let label = "context.action at \(file):\(line)"
        let (scheduler, serviceClock) = (scheduler, serviceClock)
        return Action(enabledIf: enabledIf.asObservable()) { input in
            Self.call(named: label, on: scheduler, serviceClock, after: latency, timeout: timeout) { try await work(input) }
        }
    }

    /// ``call(after:timeout:file:line:_:)``'s observable on `scheduler`, the call named `label`
    /// (for `serviceClock`'s tracker).
    static func call<Result: Sendable>(
        named label: String,
        on scheduler: any SerialScheduler,
        _ serviceClock: ServiceClock,
        after latency: Duration,
        timeout: Duration?,
        _ work: @escaping @Sendable () async throws -> Result
    ) -> Observable<Result> {
        var call = serviceClock.observe(label, on: scheduler, work)
        if latency > .zero {
            let started = call
            call = Observable.just(()).delay(latency, scheduler: scheduler).flatMap { started }
        }
        guard let timeout else { return call }
        return call.timeout(timeout, scheduler: scheduler).catch { error in
            guard error is TimeoutError else { return .error(error) }
            return .error(ViewModelTimeoutError(timeout: timeout))
        }
    }
}
