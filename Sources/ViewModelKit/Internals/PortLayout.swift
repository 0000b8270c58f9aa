/// Where a view-model type's ports are, learned once per type: their wire names in
/// declaration order, and for each one its place among the ports `Ports()` creates. The one
/// way every instance is wired, by the host (``ViewModelRegistry``'s factory) and by the
/// testing harness alike (``BuiltViewModel/build(layout:context:heldEvents:)``).
///
/// Learning it reflects one probe `Ports()` with `Mirror` (names, order, and the check that
/// every stored property is a port) while ``PortCollector`` records the ports its
/// initializers create; matching the two by identity gives ``creationIndex``. An instance is
/// then wired from its collector alone: `Mirror` over a `Ports` value cost ~60,000
/// instructions per `vm.create` (callgrind), the collector about a thousand.
///
/// A `Ports` whose ports are not all created by its own `init()` (one shared through a
/// static property, say) has no creation index; its instances are reflected with `Mirror`
/// one by one, as is an instance whose `Ports()` created a different number of ports than
/// the probe did.
struct PortLayout: Sendable {
    /// Wire names, in declaration order.
    let names: [String]
    /// Per declared port, its index among the ports `Ports()` creates, in creation order;
    /// `nil` when some port is not created by `Ports()` itself.
    let creationIndex: [Int]?
    /// How many ports one `Ports()` creates.
    let createdCount: Int

    /// The layout of `VM`'s ports, and the probe's ports in declaration order (for the
    /// type's description). Throws if a stored property of `Ports` is not a port.
    static func learn<VM: ViewModel>(_ type: VM.Type) throws(ViewModelDefinitionError) -> (layout: PortLayout, found: [PortReflection.Found]) {
        let (probe, collected) = PortCollector.collect { VM.Ports() }
        let found = try PortReflection.ports(of: probe, typeName: VM.typeName)
        var creationIndex: [Int]? = []
        for entry in found {
            guard let index = collected.firstIndex(where: { $0 === entry.port }) else {
                creationIndex = nil
                break
            }
            creationIndex?.append(index)
        }
        let layout = PortLayout(names: found.map(\.name), creationIndex: creationIndex, createdCount: collected.count)
        return (layout, found)
    }

    /// A fresh `Ports()` of `VM` with its ports in declaration order.
    func makePorts<VM: ViewModel>(of type: VM.Type) -> (ports: VM.Ports, boxes: [any PortBox]) {
        let (ports, collected) = PortCollector.collect(expecting: createdCount) { VM.Ports() }
        if let creationIndex, collected.count == createdCount {
            return (ports, creationIndex.map { collected[$0] })
        }
        // Learning the layout reflected this very type successfully, so this cannot fail.
        let found = (try? PortReflection.ports(of: ports, typeName: VM.typeName)) ?? []
        return (ports, found.map(\.port))
    }
}
