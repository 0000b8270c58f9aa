import ReactiveCore

/// One view model built from its type: its ports wired (named, bound into `bag`, event
/// outputs holding what `init` emits in `heldEvents`), its context made, its `init` run.
/// The registry's factory and the testing harness both build instances this way.
package struct BuiltViewModel<VM: ViewModel> {
    package let viewModel: VM
    package let ports: VM.Ports
    /// Every port, in declaration order.
    let boxes: [any PortBox]

    /// Builds `VM` with ports `ports` whose boxes are `boxes` named `names` (from the
    /// registry's reflection, done once per type).
    static func build(
        ports: VM.Ports, boxes: [any PortBox], names: [String], context: VM.Context, heldEvents: HeldEvents
    ) -> BuiltViewModel<VM> {
        for (port, name) in zip(boxes, names) {
            port.attach(name: name, bag: context.bag)
            port.holdEvents(in: heldEvents)
        }
        let viewModel = VM(ports: ports, context: context)
        heldEvents.endInit()
        if !heldEvents.isHolding {
            // Nothing was held: the ports let go of it (W4 counts bytes per instance).
            for port in boxes { port.holdEvents(in: nil) }
        }
        return BuiltViewModel(viewModel: viewModel, ports: ports, boxes: boxes)
    }

    /// Builds `VM` from a fresh `Ports()` reflected with `Mirror`, with `context`; events its
    /// `init` emits wait in `heldEvents`.
    ///
    /// A `Ports` whose properties are not all ports is caught by registration, not here: the
    /// properties that are ports still get their names.
    package static func build(context: VM.Context, heldEvents: HeldEvents) -> BuiltViewModel<VM> {
        let ports = VM.Ports()
        let found = (try? PortReflection.ports(of: ports, typeName: VM.typeName)) ?? []
        return build(ports: ports, boxes: found.map(\.port), names: found.map(\.name), context: context, heldEvents: heldEvents)
    }
}
