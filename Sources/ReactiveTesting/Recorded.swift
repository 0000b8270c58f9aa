import ReactiveCore

/// Virtual time of a ``TestScheduler``, in ticks (one tick is the scheduler's resolution,
/// a millisecond by default).
public typealias TestTime = Int

/// A value recorded at a virtual time: an event an observer received, or one a test
/// observable will send.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When, in ticks.
    public let time: TestTime
    /// What.
    public let value: Value

    /// `value` at `time`.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// `.next(element)` at `time`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// `.completed` at `time`.
    public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .completed)
    }

    /// `.error(error)` at `time`.
    public static func error<Element>(_ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .error(error))
    }
}

/// When a test observable was subscribed and unsubscribed, in ticks.
public struct Subscription: Equatable, Hashable, CustomDebugStringConvertible {
    /// When the subscription started.
    public let subscribe: TestTime
    /// When it was disposed; `Int.max` while it is alive.
    public let unsubscribe: TestTime

    /// A subscription from `subscribe` to `unsubscribe` (still alive by default).
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime = .max) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    public var debugDescription: String {
        unsubscribe == .max ? "(\(subscribe), alive)" : "(\(subscribe), \(unsubscribe))"
    }
}
