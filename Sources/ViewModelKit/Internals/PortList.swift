/// An instance's ports by kind, in declaration order: the one list an instance keeps
/// (``InstanceRuntime/ports``). A wrapper, so that inlinable code can pass the list along
/// without seeing the kit's port protocols.
@usableFromInline struct PortList {
    var ports: [TypedPort]

    init(_ ports: [TypedPort]) {
        self.ports = ports
    }

    init(reserving capacity: Int) {
        ports = []
        ports.reserveCapacity(capacity)
    }

    @usableFromInline var count: Int { ports.count }
}
