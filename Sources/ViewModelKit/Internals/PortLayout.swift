import ReactiveCore

/// Where a view-model type's ports are, learned once per type: their wire names in
/// declaration order and, for a `Ports` that is a plain struct of port references, where in
/// a `Ports` value each reference is stored and the exact class it has. The one way every
/// instance is wired, by the host (``ViewModelRegistry``'s factory) and by the testing
/// harness alike (``BuiltViewModel/build(layout:context:heldEvents:)``).
///
/// Learning it reflects one probe `Ports()` with `Mirror` (names, order, and the check that
/// every stored property is a port) and finds each probe port's reference among the words of
/// the probe's bytes. An instance's ports are then read from its `Ports` value at those
/// offsets: `Mirror` over a `Ports` value dominated `vm.create` (ViewModelDaemon.docc/Performance.md);
/// the read costs a few instructions per port, and needs no global or thread-local
/// state while `Ports()` runs (ports are not registered anywhere when created).
///
/// The read is checked: the value must be exactly one reference per declared port (so no
/// property holds an existential, a weak reference or anything else), every reference must
/// be non-null and of exactly the class the probe had there; otherwise that instance is
/// reflected with `Mirror`, as is every instance of a type whose probe could not be mapped.
@usableFromInline struct PortLayout: Sendable {
    /// One declared port: the byte offset of its reference in a `Ports` value, and its class.
    struct Slot: Sendable {
        let offset: Int
        let type: any PortBox.Type
    }

    /// Per declared port, in declaration order: its summary, role and wire name, shared by
    /// that port of every instance (see PortFacts.swift).
    @usableFromInline let facts: [PortFacts]
    /// Per declared port, in declaration order, where it is stored; `nil` when `Ports` is not
    /// a plain struct of port references (its instances are reflected).
    let slots: [Slot]?
    /// The declaration indices of the event outputs, the only ports that hold what `init`
    /// emits (``HeldEvents``).
    let eventPositions: [Int]

    init(facts: [PortFacts], slots: [Slot]?, eventPositions: [Int] = []) {
        self.facts = facts
        self.slots = slots
        self.eventPositions = eventPositions
    }

    /// The layout of `VM`'s ports, and the probe's ports in declaration order (for the
    /// type's description). Throws if a stored property of `Ports` is not a port.
    static func learn<VM: ViewModel>(_ type: VM.Type) throws(ViewModelDefinitionError) -> (layout: PortLayout, found: [PortReflection.Found]) {
        let probe = VM.Ports()
        let found = try PortReflection.ports(of: probe, typeName: VM.typeName)
        var eventPositions: [Int] = []
        for (index, entry) in found.enumerated() {
            if case .output(kind: .event, _) = entry.port.facts.role { eventPositions.append(index) }
        }
        let layout = PortLayout(
            facts: found.map { $0.port.facts.named($0.name) }, slots: slots(of: probe, found: found),
            eventPositions: eventPositions)
        return (layout, found)
    }

    /// Where in `probe` each of `found` is stored, if `probe` is exactly one reference per port.
    private static func slots(of probe: some ViewModelPorts, found: [PortReflection.Found]) -> [Slot]? {
        let wordSize = MemoryLayout<UInt>.size
        guard !found.isEmpty, MemoryLayout.size(ofValue: probe) == found.count * wordSize else { return nil }
        return withUnsafeBytes(of: probe) { bytes -> [Slot]? in
            var slots: [Slot] = []
            var taken = Set<Int>()
            for entry in found {
                let address = UInt(bitPattern: ObjectIdentifier(entry.port))
                let offsets = stride(from: 0, to: bytes.count, by: wordSize)
                guard let offset = offsets.first(where: { bytes.load(fromByteOffset: $0, as: UInt.self) == address }),
                      taken.insert(offset).inserted
                else { return nil }
                slots.append(Slot(offset: offset, type: Swift.type(of: entry.port)))
            }
            return slots
        }
    }

    /// A fresh `Ports()` of `VM` with its ports in declaration order, each attached to `bag`
    /// with the facts of its position (see ``attach(_:bag:)``). Its ports take their facts
    /// from ``facts`` as they are made, rather than each building its own.
    @inlinable func makePorts<VM: ViewModel>(of type: VM.Type, attachingTo bag: DisposeBag) -> (ports: VM.Ports, boxes: PortList) {
        var made: VM.Ports?
        PortFactsSharing.making(with: facts) { made = VM.Ports() }
        // `making` runs its closure exactly once; the fallback only keeps this total. Taken
        // out, not copied: a copy retained every port and destroying `made` released them.
        let ports = made.take() ?? VM.Ports()
        if let list = withUnsafeBytes(of: ports, { read(from: $0, attachingTo: bag) }) {
            return (ports, list)
        }
        let list = reflected(ports, typeName: VM.typeName)
        attach(list, bag: bag)
        return (ports, list)
    }

    /// The ports stored in `bytes` (a `Ports` value's), each attached to `bag` as it is read
    /// (one call per port that attaches it and says its kind, instead of a second pass over
    /// the list copying each port out of it), or `nil` when they are not where and what the
    /// probe's were. Ports read before such a mismatch are attached already; attaching is
    /// idempotent (the same facts, the same bag), so the caller's reflected fallback attaches
    /// every port again to the same effect.
    @usableFromInline func read(from bytes: UnsafeRawBufferPointer, attachingTo bag: DisposeBag) -> PortList? {
        guard let slots, bytes.count == slots.count * MemoryLayout<UInt>.size, slots.count == facts.count else { return nil }
        var list = PortList(reserving: slots.count)
        for index in slots.indices {
            let slot = slots[index]
            // The struct holds one strong reference per port (checked above and when learned),
            // alive as long as the `Ports` value the caller holds.
            let bits = bytes.load(fromByteOffset: slot.offset, as: UInt.self)
            guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
            let object = Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()
            guard ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(slot.type) else { return nil }
            list.ports.append(slot.type.attachedPort(of: object, facts: facts, at: index, bag: bag))
        }
        return list
    }

    /// `ports`' ports found with `Mirror` (a `Ports` the layout cannot read).
    @usableFromInline func reflected(_ ports: some ViewModelPorts, typeName: String) -> PortList {
        // Learning the layout reflected this very type successfully, so this cannot fail.
        let found = (try? PortReflection.ports(of: ports, typeName: typeName)) ?? []
        return PortList(found.map(\.port.typed))
    }

    /// Gives ports of a new instance (`boxes`, in declaration order) the facts of their
    /// positions (names among them) and binds them into `bag` (for ports reflected with
    /// `Mirror`; ``read(from:attachingTo:)`` attaches the ports it reads).
    @usableFromInline func attach(_ boxes: PortList, bag: DisposeBag) {
        for index in boxes.ports.indices where index < facts.count {
            boxes.ports[index].attach(facts: facts, at: index, bag: bag)
        }
    }

    /// Has a new instance's event outputs hold what `init` emits in `heldEvents` (`nil` when
    /// the type has no event output: there is nothing to hold).
    @usableFromInline func holdEvents(of boxes: PortList, in heldEvents: HeldEvents?) {
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

extension PortBox {
    /// `object` as this port class, attached (``PortBox/attach(facts:at:bag:)``); the caller
    /// checked that its class is exactly `Self`.
    static func attachedPort(of object: AnyObject, facts shared: [PortFacts], at position: Int, bag: DisposeBag) -> TypedPort {
        unsafeDowncast(object, to: Self.self).attach(facts: shared, at: position, bag: bag)
    }
}
