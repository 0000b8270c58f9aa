import ReactiveCore
import ReactiveTesting

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
    private let now: () -> TestTime

    /// An empty recording; its events are stamped with `scheduler`'s virtual time.
    public init(scheduler: TestScheduler? = nil) {
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
}
