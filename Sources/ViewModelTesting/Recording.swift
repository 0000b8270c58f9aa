import ReactiveCore
import ReactiveTesting
import Testing

/// Everything a stream delivered, in order, for Kickstarter-style assertions:
/// `#expect(count.values == [0, 1, 2])`, or with virtual times, RxTest-style:
/// `#expect(typing.events == [.next(0, false), .next(3500, true)])`.
public final class Recording<Value>: ObserverType {
    public typealias Element = Value

    /// Every event received, stamped with the virtual time it arrived at (`0` when the
    /// recording is not on a `TestScheduler`).
    public private(set) var events: [Recorded<Event<Value>>] = []
    /// The elements received.
    public private(set) var values: [Value] = []
    /// The error that ended the stream, if one did.
    public private(set) var error: (any Error)?
    /// Whether the stream completed.
    public private(set) var isCompleted = false
    /// What is recorded (`"\\Ports.results"`), for messages.
    let label: String
    /// How many of ``events`` an ``expect(_:sourceLocation:)`` already covered.
    private(set) var assertedCount = 0
    private let now: () -> TestTime

    /// An empty recording; its events are stamped with `scheduler`'s virtual time.
    public convenience init(scheduler: TestScheduler? = nil) {
        self.init(scheduler: scheduler, label: "recording")
    }

    init(scheduler: TestScheduler?, label: String) {
        self.label = label
        now = { [weak scheduler] in scheduler?.clock ?? 0 }
    }

    public func on(_ event: Event<Value>) {
        events.append(Recorded(time: now(), value: event))
        switch event {
        case .next(let value): values.append(value)
        case .error(let error): self.error = error
        case .completed: isCompleted = true
        }
    }

    /// The last element received, if any.
    public var last: Value? { values.last }

    /// The events received since the previous `expect` (all of them at first).
    public var unasserted: ArraySlice<Recorded<Event<Value>>> { events[assertedCount...] }

    /// Marks every event received so far as asserted (an exhaustive harness then ignores
    /// them), without checking them.
    public func skipReceived() {
        assertedCount = events.count
    }

    /// A line per event not asserted yet, for an exhaustive harness's report.
    var unassertedLines: [String] {
        unasserted.map { "    \($0.value) @ \($0.time)" }
    }
}

extension Recording where Value: Equatable {
    /// Checks that the events received since the previous `expect` are exactly `expected`
    /// (RxTest style: `.next(400, ["swift"])`), and marks them asserted. A mismatch is a
    /// test failure showing both lists.
    public func expect(_ expected: [Recorded<Event<Value>>], sourceLocation: SourceLocation = #_sourceLocation) {
        let received = Array(unasserted)
        assertedCount = events.count
        guard received != expected else { return }
        Issue.record(
            "\(label) received other events\n  expected: \(expected)\n  received: \(received)",
            sourceLocation: sourceLocation)
    }

    /// Checks that the elements received since the previous `expect` are exactly `expected`
    /// (Kickstarter style), and marks those events asserted.
    public func expect(values expected: [Value], sourceLocation: SourceLocation = #_sourceLocation) {
        let received = unasserted.compactMap { $0.value.element }
        assertedCount = events.count
        guard received != expected else { return }
        Issue.record(
            "\(label) received other values\n  expected: \(expected)\n  received: \(received)",
            sourceLocation: sourceLocation)
    }
}
