import JSONCore
import ReactiveCore

/// Builds one view model directly, with test services and a test scheduler, to test it the
/// way seed 001 (Kickstarter) does: push inputs, then assert the exact recorded outputs.
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
/// Typed all the way (no JSON): it tests the view model's logic. Children it opens are
/// recorded in ``openedChildren`` instead of being created.
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
    /// The children opened so far, in order.
    public private(set) var openedChildren: [OpenedChild] = []
    private var childNumbers: [String: Int] = [:]

    /// Builds `type` with `args` and `services`, its graph on `scheduler`.
    public init(_ type: VM.Type, args: VM.Arguments, services: VM.Services, scheduler: any SerialScheduler, id: String = "test-1") {
        let ports = VM.Ports()
        let bag = DisposeBag()
        // A Ports whose properties are not all ports is caught by registration, not here:
        // the properties that are ports still get their names.
        for entry in (try? PortReflection.ports(of: ports, typeName: VM.typeName)) ?? [] {
            entry.port.attach(name: entry.name, bag: bag)
        }
        self.ports = ports
        self.bag = bag
        weak var weakSelf: ViewModelHarness?
        let context = VM.Context(
            id: id, args: args, services: services, scheduler: scheduler, bag: bag,
            openChild: { childType, childArgs throws(ViewModelError) in
                guard let harness = weakSelf else { throw .unknownInstance(instance: id) }
                return harness.recordChild(type: childType, args: childArgs)
            })
        self.viewModel = VM(ports: ports, context: context)
        weakSelf = self
    }

    /// Builds `type` with its default arguments (decoded from `{}`).
    public convenience init(_ type: VM.Type, services: VM.Services, scheduler: any SerialScheduler) throws(JSONDecodingError) {
        self.init(type, args: try VM.Arguments(json: [:]), services: services, scheduler: scheduler)
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
        let recording = Recording<Value>()
        ports[keyPath: output].subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Records an event output from now on.
    public func record<Value>(_ output: KeyPath<VM.Ports, EventOutput<Value>>) -> Recording<Value> {
        let recording = Recording<Value>()
        ports[keyPath: output].subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Executes an action as a client would; the recording gets its elements and its end
    /// (an `ActionError` when refused or failed).
    @discardableResult
    public func execute<Value, Element>(_ action: KeyPath<VM.Ports, ActionPort<Value, Element>>, _ value: Value) -> Recording<Element> {
        let recording = Recording<Element>()
        ports[keyPath: action].execute(value).subscribe(recording).disposed(by: bag)
        return recording
    }

    /// Executes an action that takes no value.
    @discardableResult
    public func execute<Element>(_ action: KeyPath<VM.Ports, ActionPort<Void, Element>>) -> Recording<Element> {
        execute(action, ())
    }

    /// Ends the view model's lifetime: every binding and recording is disposed.
    public func dispose() {
        bag.dispose()
    }

    private func recordChild(type: String, args: JSONValue) -> String {
        let number = childNumbers[type, default: 0] + 1
        childNumbers[type] = number
        let id = type.lowercased() + "-" + String(number)
        openedChildren.append(OpenedChild(type: type, args: args, id: id))
        return id
    }
}

extension ViewModelHarness where VM.Services == Void {
    /// Builds `type`, which needs no services, with `args`.
    public convenience init(_ type: VM.Type, args: VM.Arguments, scheduler: any SerialScheduler) {
        self.init(type, args: args, services: (), scheduler: scheduler)
    }

    /// Builds `type`, which needs no services, with its default arguments.
    public convenience init(_ type: VM.Type, scheduler: any SerialScheduler) throws(JSONDecodingError) {
        self.init(type, args: try VM.Arguments(json: [:]), services: (), scheduler: scheduler)
    }
}
