import ReactiveCore

/// One view model built from its type: its ports made and wired by the type's
/// ``PortLayout`` (named, bound into `bag`, event outputs holding what `init` emits in
/// `heldEvents`), its context made, its `init` run. The registry's factory and the testing
/// harness both build instances this way.
@usableFromInline package struct BuiltViewModel<VM: ViewModel> {
    @usableFromInline package let viewModel: VM
    @usableFromInline package let ports: VM.Ports
    /// Every port, in declaration order.
    @usableFromInline let boxes: PortList

    @inlinable init(viewModel: VM, ports: VM.Ports, boxes: PortList) {
        self.viewModel = viewModel
        self.ports = ports
        self.boxes = boxes
    }

    /// Builds `VM` with a fresh `Ports()` wired by `layout` (learned once per type by the
    /// registry), with `context`.
    ///
    /// Inlinable, like the factory ``ViewModelRegistry/register(_:services:)`` forms around
    /// it in the registering module: specialized there for `VM`, it makes the context, the
    /// `Ports()` and the view model without looking generic metadata up per instance. The
    /// parts that do not depend on `VM` stay out of line in ``PortLayout``.
    @inlinable static func build(layout: PortLayout, context: consuming VM.Context, heldEvents: HeldEvents?) -> BuiltViewModel<VM> {
        let (ports, boxes) = layout.makePorts(of: VM.self, attachingTo: context.bag)
        layout.holdEvents(of: boxes, in: heldEvents)
        // Moved into the view model's `init`, not copied for it and destroyed after it.
        let viewModel = VM(ports: ports, context: consume context)
        layout.endInit(of: boxes, heldEvents: heldEvents)
        return BuiltViewModel(viewModel: viewModel, ports: ports, boxes: boxes)
    }

    /// Builds `VM` with `context`, learning its layout first (the testing harness, which
    /// has no registry); events its `init` emits wait in `heldEvents`.
    ///
    /// A `Ports` with a property that is not a port is caught by registration, not here: its
    /// ports are then left unnamed.
    package static func build(context: VM.Context, heldEvents: HeldEvents) -> BuiltViewModel<VM> {
        let layout = (try? PortLayout.learn(VM.self))?.layout ?? PortLayout(facts: [], slots: nil)
        return build(layout: layout, context: context, heldEvents: heldEvents)
    }
}
