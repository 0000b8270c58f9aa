import JSONCore
import ReactiveCore

/// A built instance: the view model, its `Ports` value (for typed child handles) and its
/// lifetime bag. A value kept inline in its ``ViewModelInstance``: one object per instance
/// fewer. Its ports, in declaration order, by kind (``RegisteredType``'s slots are indices
/// into them), are kept by the instance beside it, not in it (one copy of the list's
/// reference per instance).
@usableFromInline struct InstanceRuntime {
    /// The view model, or (for instances a typed ``ChildViewModel`` handle drives) a
    /// ``ViewModelWithPorts`` holding it and its `Ports` value: one existential in every
    /// instance instead of two (a second, almost always `nil`, was paid by every
    /// ``ViewModelInstance``).
    private let built: Any
    let bag: DisposeBag

    /// `built`: the view model, or a ``ViewModelWithPorts`` when its `Ports` value is kept.
    @usableFromInline init(built: Any, bag: DisposeBag) {
        self.built = built
        self.bag = bag
    }

    /// The view model.
    var viewModel: Any {
        if let kept = built as? ViewModelWithPorts { return kept.viewModel }
        return built
    }

    /// The typed `Ports` value, kept only for instances a typed ``ChildViewModel`` handle
    /// drives.
    var typedPorts: Any? {
        (built as? ViewModelWithPorts)?.ports
    }

    /// Builds an instance of `VM` from `seed`, its ports wired by `layout`: the registry's
    /// factory, specialized for `VM` where ``ViewModelRegistry/register(_:services:)`` is
    /// inlined. Returns the runtime and the list the ports were collected in, kept as it is
    /// by the instance: one array per instance (three arrays by kind, copied out of it, were
    /// three more allocations per `vm.create`).
    @inlinable static func build<VM: ViewModel>(
        _ type: VM.Type, seed: InstanceSeed, layout: PortLayout, services: VM.Services
    ) throws(JSONDecodingError) -> (runtime: InstanceRuntime, ports: PortList) {
        let args = try VM.Arguments(json: seed.args)
        let context = VM.Context(
            id: seed.id, args: args, services: services, bag: seed.bag, savedState: seed.savedState,
            environment: seed.environment)
        let built = BuiltViewModel<VM>.build(layout: layout, context: consume context, heldEvents: seed.heldEvents)
        let runtime = InstanceRuntime(
            built: seed.keepsPorts ? ViewModelWithPorts(viewModel: built.viewModel, ports: built.ports) : built.viewModel,
            bag: seed.bag)
        return (runtime, built.boxes)
    }

    /// Ends the instance, whose ports are `ports`: observers are dropped first (nothing more
    /// reaches them), then the bag releases every binding, then ports let go of their actions
    /// (the last port first), each port released by the list as it is detached.
    func tearDown(ports: consuming [TypedPort]) {
        for index in ports.indices {
            if case .output(let output) = ports[index] { output.closeJSON() }
        }
        bag.dispose()
        // Moved out of the list one by one, not copied out of it (a retain and a release
        // per port) and destroyed with it afterwards.
        while let port = ports.popLast() { port.detach(from: bag) }
    }
}

/// A view model with its typed `Ports` value, for an instance a typed ``ChildViewModel``
/// handle drives (see ``InstanceRuntime``). A class internal to the kit, so that no view
/// model can be mistaken for it.
@usableFromInline final class ViewModelWithPorts {
    let viewModel: Any
    let ports: Any

    @usableFromInline init(viewModel: Any, ports: Any) {
        self.viewModel = viewModel
        self.ports = ports
    }
}
