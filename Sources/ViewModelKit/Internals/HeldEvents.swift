/// The events a view model emits synchronously during its own `init`, held until whoever
/// created it has attached its subscribers.
///
/// Nobody can watch an instance before its `init` returns, so an event emitted there (an
/// "opened" announcement, a first navigation) would reach nobody. Instead each
/// ``EventOutput`` of a new instance queues its values here, in emission order across
/// outputs, until ``release()``: the creating call attaches its subscribers first (`vm.create`'s
/// `subscribe` after its replay, a parent's ``ChildViewModel`` handle, a harness recording),
/// then the held values are delivered to them in order. Values nobody watched are dropped.
/// State outputs are not held: their current value is replayed anyway.
///
/// Only `init` is held: once ``endInit()`` ran, the next event of the instance releases the
/// held ones first and then goes out itself, so the order of events never changes.
///
/// Graph thread only, like the ports.
@usableFromInline package final class HeldEvents {
    private var deliveries: [() -> Void] = []
    private var isInInit = true
    /// `true` until ``release()`` or ``discard()``.
    @usableFromInline package private(set) var isHolding = true

    package init() {}

    /// Whether an event emitted now must wait (the view model's `init` is running).
    var holdsNewEvents: Bool { isInInit && isHolding }

    /// Queues one held value's delivery (called by event outputs during `init`).
    func hold(_ delivery: @escaping () -> Void) {
        deliveries.append(delivery)
    }

    /// The view model's `init` returned: later events are not held (the first of them
    /// releases the held ones). With nothing held, this is the release.
    package func endInit() {
        isInInit = false
        if deliveries.isEmpty { isHolding = false }
    }

    /// Stops holding and delivers what was held, in emission order. Values emitted while
    /// the held ones are delivered go out at once, after the value that caused them.
    package func release() {
        guard isHolding else { return }
        isHolding = false
        isInInit = false
        let held = deliveries
        deliveries = []
        for delivery in held { delivery() }
    }

    /// Stops holding and drops what was held (the instance went away first).
    package func discard() {
        isHolding = false
        isInInit = false
        deliveries = []
    }
}
