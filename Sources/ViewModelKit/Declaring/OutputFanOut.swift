import JSONCore
import ReactiveCore

/// Delivers one output's values to any number of observers, typed and JSON, in one order.
///
/// The view model's chain is subscribed once (by the port's `bind`); every value goes
/// through ``emit(_:)``, which encodes it at most once and only when someone watches the
/// JSON side. Re-entrant emissions (an observer causing a new value of the same output) are
/// queued and delivered after the current one has reached everybody, so every observer,
/// typed or JSON, sees the same order, and a state's current value is always the last value
/// delivered.
final class OutputFanOut<Value> {
    private let encode: (Value) -> JSONValue
    private let typed = PublishSubject<Value>()
    private let json = PublishSubject<JSONValue>()
    private var queue: [Value] = []
    private var isEmitting = false
    /// Runs for each value before any observer sees it (a state stores its current value).
    private let willDeliver: (Value) -> Void

    init(encode: @escaping (Value) -> JSONValue, willDeliver: @escaping (Value) -> Void = { _ in }) {
        self.encode = encode
        self.willDeliver = willDeliver
    }

    func emit(_ value: Value) {
        queue.append(value)
        guard !isEmitting else { return }
        isEmitting = true
        var index = 0
        while index < queue.count {
            let next = queue[index]
            index += 1
            willDeliver(next)
            if json.hasObservers { json.onNext(encode(next)) }
            typed.onNext(next)
        }
        queue.removeAll(keepingCapacity: true)
        isEmitting = false
    }

    func subscribeTyped(_ observer: AnyObserver<Value>) -> any Disposable {
        typed.subscribe(observer)
    }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void) -> any Disposable {
        json.subscribe(onNext: handler)
    }

    /// Ends the JSON side: observers are told nothing more and released.
    func closeJSON() {
        json.onCompleted()
    }
}
