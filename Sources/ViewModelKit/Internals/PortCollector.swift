/// Records the ports created while one view model's `Ports()` runs, in creation order, so
/// each new instance is wired without reflecting it (see ``PortLayout``, which maps creation
/// order to declaration order once per type).
///
/// Why: `Mirror` over a `Ports` value cost ~60,000 instructions per `vm.create` (about 40% of
/// it, measured with callgrind). Every port's initializer calls ``record(_:)``.
final class PortCollector: @unchecked Sendable {
    // Why @unchecked Sendable is safe: a collector is created by `collect(_:)`, bound as a task
    // local for the duration of one synchronous call, filled by port initializers running in
    // that call on the calling thread, and read after the call returns. `@TaskLocal` requires
    // `Sendable` only because child tasks could read the binding; ports are created
    // synchronously by `Ports()`, never in a task it starts.
    // Unchecked exclusivity: only appended to (by `record`, which runs no other code while
    // appending) and read after `collect`'s call returned; no access spans another.
    @exclusivity(unchecked) private(set) var ports: [any PortBox] = []

    @TaskLocal private static var current: PortCollector?

    /// Runs `make` and returns its value with the ports created meanwhile, in order;
    /// `expected` (how many a `Ports()` of the type created before) sizes the list once.
    static func collect<Value>(expecting expected: Int = 0, _ make: () -> Value) -> (value: Value, ports: [any PortBox]) {
        let collector = PortCollector()
        collector.ports.reserveCapacity(expected)
        let value = $current.withValue(collector) { make() }
        return (value, collector.ports)
    }

    /// Called by every port's initializer; does nothing outside ``collect(_:)``.
    static func record(_ port: any PortBox) {
        current?.ports.append(port)
    }
}
