import ReactiveCore

/// An observer that records every event it receives with the virtual time it arrived.
public final class TestableObserver<Element>: ObserverType {
    private unowned let scheduler: TestScheduler

    /// Everything received, in order.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }

    /// The elements received, in order, without times (Kickstarter-style assertions).
    public var values: [Element] { events.compactMap { $0.value.element } }

    /// Whether a `.completed` was received.
    public var didComplete: Bool { events.contains { if case .completed = $0.value { return true } else { return false } } }

    /// The error received, if any.
    public var error: (any Error)? { events.lazy.compactMap { $0.value.error }.first }
}
