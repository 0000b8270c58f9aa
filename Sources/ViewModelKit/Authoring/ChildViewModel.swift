import ReactiveCore

/// A parent's typed handle on a child instance it created with
/// ``ViewModelContext/createChild(_:args:id:)``: watch the child's outputs, push its inputs,
/// execute its actions, destroy it (the coordinator pattern: a scene reports back).
///
/// ```swift
/// let row = try context.createChild(MessageRow.self, args: .init(id: message.id))
/// ports.unread.bind(row.output(\.isRead).map { !$0 })
/// row.send(\.markRead)
/// ```
///
/// Values go straight between the two graphs, typed, on the shared scheduler's thread (no
/// JSON, no schema checks). The child is a real instance: clients see it in `vm.list` with
/// its parent and can drive it too; it is destroyed with its parent, before it. Events the
/// child emits during its own `init` are delivered to the observers the parent attaches
/// in the call that created it (see ``EventOutput``). After the child is destroyed its
/// outputs emit nothing more, inputs go nowhere and actions are not enabled.
public struct ChildViewModel<Child: ViewModel> {
    /// The child's instance id (`"messagerow-1"`).
    public let id: String
    let ports: Child.Ports
    private let destroyChild: () -> Void

    /// A handle on the child `id`, whose ports are `ports` (hosts and harnesses build these).
    package init(id: String, ports: Child.Ports, destroy: @escaping () -> Void) {
        self.id = id
        self.ports = ports
        self.destroyChild = destroy
    }

    /// A state output of the child: its current value at once, then every new one.
    public func output<Value>(_ output: KeyPath<Child.Ports, State<Value>>) -> Observable<Value> {
        ports[keyPath: output].asObservable()
    }

    /// An event output of the child: every value from now on.
    public func output<Value>(_ output: KeyPath<Child.Ports, EventOutput<Value>>) -> Observable<Value> {
        ports[keyPath: output].asObservable()
    }

    /// Pushes `value` into an input of the child, as `vm.send` would.
    public func send<Value>(_ input: KeyPath<Child.Ports, Input<Value>>, _ value: Value) {
        ports[keyPath: input].send(value)
    }

    /// Pushes into an input of the child that carries nothing.
    public func send(_ input: KeyPath<Child.Ports, Input<Void>>) {
        ports[keyPath: input].send(())
    }

    /// Executes an action of the child with `value`; the execution's elements, or an
    /// `ActionError` when refused or failed. Subscribing starts it, disposing cancels it.
    public func execute<Value, Element>(_ action: KeyPath<Child.Ports, ActionPort<Value, Element>>, _ value: Value) -> Observable<Element> {
        Observable.deferred { ports[keyPath: action].execute(value) }
    }

    /// Executes an action of the child that takes no value.
    public func execute<Element>(_ action: KeyPath<Child.Ports, ActionPort<Void, Element>>) -> Observable<Element> {
        execute(action, ())
    }

    /// Destroys the child (and its own children); clients watching it hear `vm.closed`
    /// with reason `destroyed`. Destroying it again does nothing.
    public func destroy() {
        destroyChild()
    }
}
