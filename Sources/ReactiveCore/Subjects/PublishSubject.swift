/// A subject that forwards every event to its current observers; late subscribers miss
/// earlier elements, but a subscriber arriving after the end receives the terminal event.
///
/// ## Re-entrancy: trampolined, not recursive
///
/// When an observer, while receiving an event, sends a new event to the same subject, the new
/// event is **queued** and delivered after the current event reached every observer
/// (RxSwift would instead deliver it recursively, so observers later in the list would see
/// the new event before the old one). Consequences, all tested:
/// - every observer sees the subject's events in the same order;
/// - `on(_:)` returns before a re-entrant event was delivered;
/// - the subject's state (``BehaviorSubject/value``, a replay buffer, ended or not) changes
///   when an event is delivered, so inside an observer it reflects the event being delivered.
///
/// Like the rest of the graph, a subject is used from one thread (see ``Observable``).
public final class PublishSubject<Element>: ObservableType, ObserverType {
    @usableFromInline let hub = ObserverHub<Element>()
    // Unchecked exclusivity: only read or assigned in place, never across a call.
    @exclusivity(unchecked) @usableFromInline var terminal: Event<Element>?

    /// A subject with no observers.
    @inlinable public init() {}

    /// Whether some observer is subscribed.
    @inlinable public var hasObservers: Bool { hub.hasObservers }

    /// Whether the subject received a terminal event.
    @inlinable public var isStopped: Bool { terminal != nil }

    @inlinable public func on(_ event: Event<Element>) {
        hub.send(event) { event in
            guard terminal == nil else { return false }
            if event.isStopEvent { terminal = event }
            return true
        }
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        if let terminal {
            observer.on(terminal)
            return NopDisposable()
        }
        return hub.add(AnyObserver(observer))
    }

    @inlinable public func asObservable() -> Observable<Element> {
        Observable { observer in self.subscribe(observer) }
    }
}
