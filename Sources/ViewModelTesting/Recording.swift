import ReactiveCore

/// Everything a stream delivered, in order, for Kickstarter-style assertions:
/// `#expect(count.values == [0, 1, 2])`.
///
/// (`ReactiveTesting.TestableObserver` records virtual times too; this one needs no test
/// module, so catalog tests and tools can use it alike.)
public final class Recording<Value>: ObserverType {
    public typealias Element = Value

    /// The elements received.
    public private(set) var values: [Value] = []
    /// The error that ended the stream, if one did.
    public private(set) var error: (any Error)?
    /// Whether the stream completed.
    public private(set) var isCompleted = false

    /// An empty recording.
    public init() {}

    public func on(_ event: Event<Value>) {
        switch event {
        case .next(let value): values.append(value)
        case .error(let error): self.error = error
        case .completed: isCompleted = true
        }
    }

    /// The last element received, if any.
    public var last: Value? { values.last }
}
