#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Records the ports created while one view model's `Ports()` runs, in creation order, so
/// each new instance is wired without reflecting it (see ``PortLayout``, which maps creation
/// order to declaration order once per type).
///
/// Why: `Mirror` over a `Ports` value cost ~60,000 instructions per `vm.create` (about 40% of
/// it, measured with callgrind). Every port's initializer calls ``record(_:)``.
///
/// How the port initializers find the collector: through a POSIX thread-specific slot that
/// ``collect(expecting:_:)`` sets for the duration of its synchronous call and restores
/// afterwards. `Ports()` creates its ports synchronously on the calling thread, so the
/// slot of that thread is the one they read; another thread building ports at the same time
/// has its own slot. (A `@TaskLocal` did the same at ~5,200 instructions per `vm.create`,
/// measured with callgrind; the slot costs a few dozen.)
@usableFromInline enum PortCollector {
    /// The collecting call's list, as a pointer to its local array; `nil` outside a call.
    /// Created once, never deleted.
    @usableFromInline static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// Runs `make` and returns its value with the ports created meanwhile, in order;
    /// `expected` (how many a `Ports()` of the type created before) sizes the list once.
    /// Inlinable so that `make` (a type's `Ports()`) is a direct call in the specialized
    /// factory (see ``BuiltViewModel/build(layout:context:heldEvents:)``).
    @inlinable static func collect<Value>(expecting expected: Int = 0, _ make: () -> Value) -> (value: Value, ports: PortList) {
        var ports = PortList(reserving: expected)
        let key = slot
        let outer = pthread_getspecific(key)
        // The pointer is valid only inside this closure: the slot is restored before it
        // returns, and `record` only appends through it (it calls nothing that could reach
        // `ports` another way).
        let value = withUnsafeMutablePointer(to: &ports) { list in
            pthread_setspecific(key, list)
            defer { pthread_setspecific(key, outer) }
            return make()
        }
        return (value, ports)
    }

    /// Called by every port's initializer; does nothing outside ``collect(expecting:_:)``.
    static func record(_ port: any PortBox) {
        guard let list = pthread_getspecific(slot) else { return }
        list.assumingMemoryBound(to: PortList.self).pointee.ports.append(port.typed)
    }
}

/// An instance's ports by kind (in creation order while collected, then in declaration
/// order): the one list an instance keeps (``InstanceRuntime/ports``). A wrapper, so that
/// inlinable code can pass the list along without seeing the kit's port protocols.
@usableFromInline struct PortList {
    var ports: [TypedPort]

    init(_ ports: [TypedPort]) {
        self.ports = ports
    }

    @usableFromInline init(reserving capacity: Int) {
        ports = []
        ports.reserveCapacity(capacity)
    }

    @usableFromInline var count: Int { ports.count }
}
