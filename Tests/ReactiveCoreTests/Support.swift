import ReactiveCore
import ReactiveTesting

/// The error the tests send.
struct TestError: Error, Equatable {
    var code = 1
}

/// A class whose lifetime the memory tests watch through weak references.
final class Canary {
    var value = 0
}

/// Subscribes `observers` observers to a PublishSubject, the one at `canaryAt` keeping a Canary
/// that records the values it hears; sends `value`; releases the subject; then disposes every
/// subscription (last first when `reversed`). Returns what the canary heard and whether it was
/// freed at the end.
func canaryAfterReleasingTheSubject(
    observers: Int, canaryAt: Int, value: Int, reversed: Bool
) -> (heard: Int, freed: Bool) {
    weak var observed: Canary?
    var heard = 0
    var subscriptions: [any Disposable] = []
    do {
        let subject = PublishSubject<Int>()
        let canary = Canary()
        observed = canary
        for index in 0..<observers {
            subscriptions.append(index == canaryAt ? subject.subscribe(onNext: { canary.value = $0 }) : subject.subscribe(onNext: { _ in }))
        }
        subject.onNext(value)
        heard = canary.value
    }
    for subscription in reversed ? subscriptions.reversed() : subscriptions { subscription.dispose() }
    subscriptions = []
    return (heard, observed == nil)
}

/// Records a log of strings, for ordering assertions.
final class Log {
    private(set) var entries: [String] = []

    func append(_ entry: String) { entries.append(entry) }
}
