import ReactiveCore

/// The facts of an ``Input`` of values of type `Value`: its ``PortFacts`` and how a value
/// reaches its observers (the input is its own subject), shared like the rest by that input of
/// every instance.
///
/// The delivery is a closure rather than a direct call because the kit reaches
/// `push(json:)` through `any InputPortBox`, where `Value` is unknown, and the unspecialized
/// delivery pays generic metadata lookups on every event (ViewModelDaemon.docc/Performance.md). The closure is formed in `Input.init`, which a view model's
/// `Ports()` calls with a concrete `Value`; that `init` is `@inlinable`, so the app's module
/// specializes it there; it captures nothing. Kept here, once per type, rather than in every
/// input of every instance.
///
/// An input's facts are always of this class for its own `Value`: `Input.init` makes or
/// claims only those, and `Input.attach(facts:at:bag:)` takes only facts of the class it has.
@usableFromInline final class InputFacts<Value>: PortFacts, @unchecked Sendable {
    @usableFromInline let deliver: @Sendable (Input<Value>, Value) -> Void

    @usableFromInline init(
        summary: String, role: PortRole, name: String, declaredCodec: Any? = nil,
        deliver: @escaping @Sendable (Input<Value>, Value) -> Void
    ) {
        self.deliver = deliver
        super.init(summary: summary, role: role, name: name, declaredCodec: declaredCodec)
    }

    override func named(_ name: String) -> PortFacts {
        InputFacts(summary: summary, role: role, name: name, deliver: deliver)
    }
}
