/// A subject with a current value: each subscriber first receives the current value, then
/// the following events. After the end, subscribers receive only the terminal event.
///
/// Re-entrant events are trampolined and ``value`` changes on delivery (see ``PublishSubject``).
public final class BehaviorSubject<Element>: ObserverHub<Element>, ObservableType, ObserverType {
    // Unchecked exclusivity: only read or assigned in place, never across a call.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var terminal: Event<Element>?

    /// The last element delivered (or the initial one); still readable after the end.
    @inlinable public var value: Element { current }
    // Stored apart from `value` so that the inlinable `on(_:)` can assign it while `value`
    // stays read-only to clients. Unchecked exclusivity, same reason as `terminal`.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var current: Element

    /// A subject whose current value is `value`.
    @inlinable public init(value: Element) {
        self.terminal = nil
        self.current = value
        super.init()
    }

    /// Whether some observer is subscribed.
    @inlinable public var hasObservers: Bool { isObserved }

    /// Never: a new subscriber first receives the current value.
    @inlinable override var attachesAsSubscribed: Bool { false }

    /// Whether the subject received a terminal event.
    @inlinable public var isStopped: Bool { terminal != nil }

    @inlinable public func on(_ event: Event<Element>) {
        send(event) { event in
            guard terminal == nil else { return false }
            switch event {
            case .next(let element): current = element
            case .error, .completed: terminal = event
            }
            return true
        }
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        if let terminal {
            observer.on(terminal)
            return NopDisposable()
        }
        let erased = AnyObserver(observer)
        let entry = add(erased)
        erased.on(.next(value))
        return entry
    }

    @inlinable public func asObservable() -> Observable<Element> {
        SourceObservable(self)
    }
}
