import ReactiveCore

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
@usableFromInline struct PortLayout: Sendable {
    /// Wire names, in declaration order.
    @usableFromInline let names: [String]
    /// Per declared port, its index among the ports `Ports()` creates, in creation order;
    /// `nil` when some port is not created by `Ports()` itself.
    @usableFromInline let creationIndex: [Int]?
    /// How many ports one `Ports()` creates.
    @usableFromInline let createdCount: Int
    /// Whether `Ports()` creates exactly its declared ports, in declaration order (the usual
    /// case): an instance's ports are then its collected list as it is, not a reordered copy.
    @usableFromInline let isInCreationOrder: Bool
    /// The declaration indices of the event outputs, the only ports that hold what `init`
    /// emits (``HeldEvents``).
    let eventPositions: [Int]

    init(names: [String], creationIndex: [Int]?, createdCount: Int, eventPositions: [Int] = []) {
        self.names = names
        self.eventPositions = eventPositions
        self.creationIndex = creationIndex
        self.createdCount = createdCount
        isInCreationOrder = creationIndex.map { $0 == Array(0..<createdCount) } ?? false
    }

    /// The layout of `VM`'s ports, and the probe's ports in declaration order (for the
    /// type's description). Throws if a stored property of `Ports` is not a port.
    static func learn<VM: ViewModel>(_ type: VM.Type) throws(ViewModelDefinitionError) -> (layout: PortLayout, found: [PortReflection.Found]) {
        let (probe, list) = PortCollector.collect { VM.Ports() }
        let collected = list.ports
        let found = try PortReflection.ports(of: probe, typeName: VM.typeName)
        var creationIndex: [Int]? = []
        for entry in found {
            guard let index = collected.firstIndex(where: { $0.box === entry.port }) else {
                creationIndex = nil
                break
            }
            creationIndex?.append(index)
        }
        var eventPositions: [Int] = []
        for (index, entry) in found.enumerated() {
            if case .output(kind: .event, _) = entry.port.role { eventPositions.append(index) }
        }
        let layout = PortLayout(
            names: found.map(\.name), creationIndex: creationIndex, createdCount: collected.count,
            eventPositions: eventPositions)
        return (layout, found)
    }

    /// A fresh `Ports()` of `VM` with its ports in declaration order.
    @inlinable func makePorts<VM: ViewModel>(of type: VM.Type) -> (ports: VM.Ports, boxes: PortList) {
        let (ports, collected) = PortCollector.collect(expecting: createdCount) { VM.Ports() }
        if isInCreationOrder, collected.count == createdCount {
            return (ports, collected)
        }
        return (ports, declarationOrder(of: collected, in: ports, typeName: VM.typeName))
    }

    /// `collected` (the ports a `Ports()` created) in declaration order, when they were not
    /// created in it.
    @usableFromInline func declarationOrder(of collected: PortList, in ports: some ViewModelPorts, typeName: String) -> PortList {
        if let creationIndex, collected.count == createdCount {
            return PortList(creationIndex.map { collected.ports[$0] })
        }
        // Learning the layout reflected this very type successfully, so this cannot fail.
        let found = (try? PortReflection.ports(of: ports, typeName: typeName)) ?? []
        return PortList(found.map(\.port.typed))
    }

    /// Names a new instance's ports (`boxes`, in declaration order), binds them into `bag`
    /// and has its event outputs hold what `init` emits in `heldEvents` (`nil` when the
    /// type has no event output: there is nothing to hold).
    @usableFromInline func attach(_ boxes: PortList, bag: DisposeBag, heldEvents: HeldEvents?) {
        for (typed, name) in zip(boxes.ports, names) {
            typed.box.attach(name: name, bag: bag)
        }
        guard let heldEvents else { return }
        for index in eventPositions where index < boxes.count {
            boxes.ports[index].box.holdEvents(in: heldEvents)
        }
    }

    /// The view model's `init` returned: when it emitted no event, the ports let go of
    /// `heldEvents` (workload W4 of Sources/vmd-bench/DaemonBenchmarks.swift).
    @usableFromInline func endInit(of boxes: PortList, heldEvents: HeldEvents?) {
        guard let heldEvents else { return }
        heldEvents.endInit()
        if !heldEvents.isHolding {
            for index in eventPositions where index < boxes.count {
                boxes.ports[index].box.holdEvents(in: nil)
            }
        }
    }
}
