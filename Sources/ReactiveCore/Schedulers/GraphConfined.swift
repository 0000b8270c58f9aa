/// Carries a graph value (a closure, a sink) through code that requires `Sendable`, when the
/// value is only *used* on the graph's thread.
///
/// Why this is safe: the graph is single-threaded by contract (see ``Observable``). A value is
/// wrapped on the graph's thread, moved through a Task or a dispatch queue without being
/// touched (only retained and released, which are atomic), and unwrapped by a job that runs
/// on the graph's thread again (``SerialScheduler/enqueue(_:)`` or the serial queue the
/// graph lives on). So no two threads ever access it concurrently.
struct GraphConfined<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

extension GraphConfined where Value == () -> Void {
    /// Runs the wrapped closure; call it only on the graph's thread.
    @Sendable
    func run() { value() }
}
