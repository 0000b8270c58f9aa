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
public final class PublishSubject<Element>: ObserverHub<Element>, ObservableType, ObserverType {
    /// How the subject ended, kept without its element type (the `deinit`, which never
    /// specializes, then destroys it without looking `Event<Element>`'s metadata up), in the
    /// hub's `overflow`: most subjects never end before they are freed, and they stay a word
    /// smaller (see `ObserverHub.Overflow`).
    @inlinable var terminal: StopEvent? { overflow?.terminal }

    /// A subject with no observers.
    @inlinable public override init() {
        super.init()
    }

    /// Whether some observer is subscribed.
    @inlinable public var hasObservers: Bool { isObserved }

    /// Until it ends: an ended subject delivers its terminal event to each new subscriber.
    @inlinable override var attachesAsSubscribed: Bool { terminal == nil }

    /// Whether the subject received a terminal event.
    @inlinable public var isStopped: Bool { terminal != nil }

    @inlinable public func on(_ event: Event<Element>) {
        send(event) { event in
            guard terminal == nil else { return false }
            switch event {
            case .next: break
            case .error(let error): madeOverflow().terminal = .error(error)
            case .completed: madeOverflow().terminal = .completed
            }
            return true
        }
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        if let terminal {
            observer.on(terminal.event())
            return NopDisposable()
        }
        return subscribeObserver(observer)
    }

    @inlinable public func asObservable() -> Observable<Element> {
        SourceObservable(self)
    }
}
