import JSONCore
import ReactiveCore
import ReactiveTesting
import ViewModelKit

/// Builds one view model directly, with test services and a test scheduler, to test it the
/// Kickstarter way: push inputs, then assert the exact recorded outputs.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let counter = try ViewModelHarness(Counter.self, scheduler: scheduler)
/// let count = counter.record(\.count)
/// scheduler.scheduleAt(10) { counter.send(\.increment, 1) }
/// scheduler.scheduleAt(20) { counter.send(\.increment, 2) }
/// scheduler.start()
/// #expect(count.values == [0, 1, 3])
/// ```
///
/// Typed all the way (no JSON): it tests the view model's logic.
///
/// ## Children
/// Every child the view model opens is listed in ``openedChildren``. A child opened with the
/// typed `context.createChild(_:args:)` is also built for real, as a harness of its own
/// (``children(_:)``, ``child(_:id:)``), so the test can drive the child and watch the parent
/// react; its services come from the `childServices` given at creation. A child opened by type
/// name only is recorded, not built.
///
/// ## Events emitted during `init`
/// Like the daemon's host, the harness holds what the view model's event outputs emit while
/// its `init` runs, and delivers it at the scheduler's first turn (`TestScheduler`'s
/// `start()` or `advance`), or just before the view model's next event if that comes first,
/// to the recordings made by then; nobody recording, it is dropped.
public final class ViewModelHarness<VM: ViewModel> {
    /// A child the view model opened.
    public struct OpenedChild: Equatable {
        public let type: String
        public let args: JSONValue
        /// The id handed back to the view model (`"sendreceipt-1"`).
        public let id: String

        public init(type: String, args: JSONValue, id: String) {
            self.type = type
            self.args = args
            self.id = id
        }
    }

    /// The view model's ports: push into inputs, watch outputs, execute actions.
    public let ports: VM.Ports
    /// The view model under test.
    public let viewModel: VM
    /// Its lifetime; ``dispose()`` disposes it.
    public let bag: DisposeBag
    /// The id the view model was given.
    public let id: String
    /// Its saved values (`context.saved`), in memory: pre-load one to test a restore, read
    /// `SavedState.entries` to see what the view model saved.
    public let savedState: SavedState
    /// The children opened so far, in order (destroyed ones included).
    public var openedChildren: [OpenedChild] {
        opener.opened.map { OpenedChild(type: $0.type, args: $0.args, id: $0.id) }
    }
    /// `true` once ``dispose()`` ran (or the parent destroyed this child).
    public private(set) var isDisposed = false
    /// The scheduler the graph lives on.
    public let scheduler: any SerialScheduler
    /// The service calls of this view model and its children (shared with its children).
    let calls: ServiceCallTracker
    /// Whether ``finish(sourceLocation:)`` requires every recorded event asserted and no
    /// service call running (ViewModelHarness+Exhaustive.swift).
    public var exhaustivity = Exhaustivity.off
    /// The recordings made through this harness, for the exhaustive check.
    var recordings: [any UnassertedReporting] = []
    /// Whether the exhaustive check ran (``finish(sourceLocation:)``).
    var isFinished = false
    private let heldEvents: HeldEvents
    private let opener: HarnessChildOpener

    /// Builds `type` with `args` and `services`, its graph on `scheduler`; typed children it
    /// opens get their services from `childServices`; its saved values start from `savedState`.
    ///
    /// On a `TestScheduler`, `context.clock` is its `TestScheduler.virtualClock`
    /// and the harness tracks the view model's service calls (``settle(sourceLocation:)``).
    public convenience init(
        _ type: VM.Type, args: VM.Arguments, services: VM.Services, scheduler: any SerialScheduler,
        id: String = "test-1", childServices: ChildServices = ChildServices(), savedState: SavedState = SavedState()
    ) {
        self.init(type, args: args, services: services, scheduler: scheduler, id: id, childServices: childServices,
                  savedState: savedState, calls: nil)
    }

    /// Builds the harness; a child shares its parent's `calls`, a root (`nil`) makes its own.
    init(
        _ type: VM.Type, args: VM.Arguments, services: VM.Services, scheduler: any SerialScheduler,
        id: String, childServices: ChildServices, savedState: SavedState = SavedState(),
        calls parentCalls: ServiceCallTracker?
    ) {
        let bag = DisposeBag()
        let heldEvents = HeldEvents()
        let calls = parentCalls ?? ServiceCallTracker()
        let opener = HarnessChildOpener(scheduler: scheduler, services: childServices, calls: calls)
        let context = VM.Context(
            id: id, args: args, services: services, scheduler: scheduler, bag: bag, children: opener,
            serviceClock: Self.serviceClock(on: scheduler, calls: calls), savedState: savedState)
        if parentCalls == nil, let testScheduler = scheduler as? TestScheduler {
            Self.guardSynchronousTime(of: testScheduler, calls: calls)
        }
        let built = BuiltViewModel<VM>.build(context: context, heldEvents: heldEvents)
        if heldEvents.isHolding { scheduler.schedule { heldEvents.release() } }
        self.ports = built.ports
        self.viewModel = built.viewModel
        self.bag = bag
        self.id = id
        self.savedState = savedState
        self.heldEvents = heldEvents
        self.opener = opener
        self.scheduler = scheduler
        self.calls = calls
    }

    /// Builds `type` with its default arguments (decoded from `{}`).
    public convenience init(
        _ type: VM.Type, services: VM.Services, scheduler: any SerialScheduler, childServices: ChildServices = ChildServices()
    ) throws(JSONDecodingError) {
        self.init(type, args: try VM.Arguments(json: [:]), services: services, scheduler: scheduler, childServices: childServices)
    }

    /// Pushes `value` into an input.
    public func send<Value>(_ input: KeyPath<VM.Ports, Input<Value>>, _ value: Value) {
        ports[keyPath: input].send(value)
    }

    /// Pushes into an input that carries nothing.
    public func send(_ input: KeyPath<VM.Ports, Input<Void>>) {
        ports[keyPath: input].send(())
    }

    /// Records a state output: its current value now, then every new one.
    public func record<Value>(_ output: KeyPath<VM.Ports, State<Value>>) -> Recording<Value> {
        let recording = Recording<Value>(scheduler: scheduler as? TestScheduler, label: "\(output)")
        recordings.append(recording)
        ports[keyPath: output].subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Records an event output from now on (and, made before the scheduler's first turn,
    /// what the view model emitted during its `init`).
    public func record<Value>(_ output: KeyPath<VM.Ports, EventOutput<Value>>) -> Recording<Value> {
        let recording = Recording<Value>(scheduler: scheduler as? TestScheduler, label: "\(output)")
        recordings.append(recording)
        ports[keyPath: output].subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Executes an action as a client would; the recording gets its elements and its end
    /// (an `ActionError` when refused or failed).
    @discardableResult
    public func execute<Value, Element>(_ action: KeyPath<VM.Ports, ActionPort<Value, Element>>, _ value: Value) -> Recording<Element> {
        let recording = Recording<Element>(scheduler: scheduler as? TestScheduler, label: "\(action)")
        recordings.append(recording)
        ports[keyPath: action].execute(value).subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Executes an action that takes no value.
    @discardableResult
    public func execute<Element>(_ action: KeyPath<VM.Ports, ActionPort<Void, Element>>) -> Recording<Element> {
        execute(action, ())
    }

    /// The live children of type `type` built from typed `createChild` calls, in creation order.
    public func children<Child: ViewModel>(_ type: Child.Type) -> [ViewModelHarness<Child>] {
        opener.live.compactMap { $0.harness as? ViewModelHarness<Child> }
    }

    /// The live child `id`, if it is of type `type`.
    public func child<Child: ViewModel>(_ type: Child.Type, id: String) -> ViewModelHarness<Child>? {
        opener.live.first { $0.id == id }?.harness as? ViewModelHarness<Child>
    }

    deinit {
        // An exhaustive test that never called `finish()` is checked when the harness goes.
        if exhaustivity == .on, !isFinished { reportUnasserted(sourceLocation: nil) }
    }

    /// Ends the view model's lifetime: its live children are disposed first, then every
    /// binding and recording.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        opener.disposeAll()
        heldEvents.discard()
        bag.dispose()
    }
}

extension ViewModelHarness where VM.Services == Void {
    /// Builds `type`, which needs no services, with `args` (and its saved values from `savedState`).
    public convenience init(
        _ type: VM.Type, args: VM.Arguments, scheduler: any SerialScheduler, childServices: ChildServices = ChildServices(),
        savedState: SavedState = SavedState()
    ) {
        self.init(type, args: args, services: (), scheduler: scheduler, childServices: childServices, savedState: savedState)
    }

    /// Builds `type`, which needs no services, with its default arguments.
    public convenience init(_ type: VM.Type, scheduler: any SerialScheduler, childServices: ChildServices = ChildServices()) throws(JSONDecodingError) {
        self.init(type, args: try VM.Arguments(json: [:]), services: (), scheduler: scheduler, childServices: childServices)
    }
}

extension ViewModelHarness: HarnessChild {}
