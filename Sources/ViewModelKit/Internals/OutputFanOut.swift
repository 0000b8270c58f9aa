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
///
/// Both subjects are created by their first observer: a hosted instance is watched in JSON
/// only, and many outputs are never watched, so most never exist (each costs two objects,
/// about 150 bytes, per output per instance; W4 counts bytes per instance).
///
/// Exclusivity: `queue` and `isEmitting` are `@exclusivity(unchecked)`: every access is a single
/// read, assignment or array call that runs no user code, so no access spans an observer call
/// (a re-entrant `emit` only appends).
///
/// Inlinable: `emit` runs for every value of every output, and the ports' `bind`/`accept`
/// that call it are inlined into the app's module; exposing it lets that module specialize
/// it for the concrete `Value` instead of going through generic metadata per value.
@usableFromInline final class OutputFanOut<Value> {
    @usableFromInline let encode: (Value) -> JSONValue
    @usableFromInline var typed: PublishSubject<Value>?
    @usableFromInline var json: PublishSubject<JSONValue>?
    /// Set by ``closeJSON()`` when no JSON subject existed: later JSON observers get nothing.
    @usableFromInline var isJSONClosed = false
    @exclusivity(unchecked) @usableFromInline var queue: [Value] = []
    @exclusivity(unchecked) @usableFromInline var isEmitting = false
    /// Runs for each value before any observer sees it (a state stores its current value).
    @usableFromInline let willDeliver: (Value) -> Void

    @inlinable init(encode: @escaping (Value) -> JSONValue, willDeliver: @escaping (Value) -> Void = { _ in }) {
        self.encode = encode
        self.willDeliver = willDeliver
    }

    @inlinable func emit(_ value: Value) {
        queue.append(value)
        guard !isEmitting else { return }
        isEmitting = true
        var index = 0
        while index < queue.count {
            let next = queue[index]
            index += 1
            willDeliver(next)
            if let json, json.hasObservers { json.onNext(encode(next)) }
            typed?.onNext(next)
        }
        queue.removeAll(keepingCapacity: true)
        isEmitting = false
    }

    @inlinable func subscribeTyped(_ observer: AnyObserver<Value>) -> any Disposable {
        let subject = typed ?? PublishSubject<Value>()
        typed = subject
        return subject.subscribe(observer)
    }

    func observeJSON(_ handler: @escaping (JSONValue) -> Void) -> any Disposable {
        if isJSONClosed { return Disposables.create() }
        let subject = json ?? PublishSubject<JSONValue>()
        json = subject
        return subject.subscribe(onNext: handler)
    }

    /// Ends the JSON side: observers are told nothing more and released.
    func closeJSON() {
        if let json {
            json.onCompleted()
        } else {
            isJSONClosed = true
        }
    }
}
