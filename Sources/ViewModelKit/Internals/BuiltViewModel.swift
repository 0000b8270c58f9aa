import ReactiveCore

/// One view model built from its type: its ports made and wired by the type's
/// ``PortLayout`` (named, bound into `bag`, event outputs holding what `init` emits in
/// `heldEvents`), its context made, its `init` run. The registry's factory and the testing
/// harness both build instances this way.
package struct BuiltViewModel<VM: ViewModel> {
    package let viewModel: VM
    package let ports: VM.Ports
    /// Every port, in declaration order.
    let boxes: [any PortBox]

    /// Builds `VM` with a fresh `Ports()` wired by `layout` (learned once per type by the
    /// registry), with `context`.
    static func build(layout: PortLayout, context: VM.Context, heldEvents: HeldEvents) -> BuiltViewModel<VM> {
        let (ports, boxes) = layout.makePorts(of: VM.self)
        for (port, name) in zip(boxes, layout.names) {
            port.attach(name: name, bag: context.bag)
            port.holdEvents(in: heldEvents)
        }
        let viewModel = VM(ports: ports, context: context)
        heldEvents.endInit()
        if !heldEvents.isHolding {
            // Nothing was held: the ports let go of it (workload W4 of Sources/vmd-bench/DaemonBenchmarks.swift).
            for port in boxes { port.holdEvents(in: nil) }
        }
        return BuiltViewModel(viewModel: viewModel, ports: ports, boxes: boxes)
    }

    /// Builds `VM` with `context`, learning its layout first (the testing harness, which
    /// has no registry); events its `init` emits wait in `heldEvents`.
    ///
    /// A `Ports` with a property that is not a port is caught by registration, not here: its
    /// ports are then left unnamed.
    package static func build(context: VM.Context, heldEvents: HeldEvents) -> BuiltViewModel<VM> {
        let layout = (try? PortLayout.learn(VM.self))?.layout ?? PortLayout(names: [], creationIndex: nil, createdCount: 0)
        return build(layout: layout, context: context, heldEvents: heldEvents)
    }
}
