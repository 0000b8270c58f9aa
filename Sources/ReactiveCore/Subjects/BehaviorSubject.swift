/// A subject with a current value: each subscriber first receives the current value, then
/// the following events. After the end, subscribers receive only the terminal event.
///
/// Re-entrant events are trampolined and ``value`` changes on delivery (see ``PublishSubject``).
public final class BehaviorSubject<Element>: ObservableType, ObserverType {
    private let hub = ObserverHub<Element>()
    // Unchecked exclusivity: only read or assigned in place, never across a call.
    @exclusivity(unchecked) private var terminal: Event<Element>?

    /// The last element delivered (or the initial one); still readable after the end.
    @exclusivity(unchecked) public private(set) var value: Element

    /// A subject whose current value is `value`.
    public init(value: Element) {
        self.value = value
    }

    /// Whether some observer is subscribed.
    public var hasObservers: Bool { hub.hasObservers }

    /// Whether the subject received a terminal event.
    public var isStopped: Bool { terminal != nil }

    public func on(_ event: Event<Element>) {
        hub.send(event) { event in
            guard terminal == nil else { return false }
            switch event {
            case .next(let element): value = element
            case .error, .completed: terminal = event
            }
            return true
        }
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        if let terminal {
            observer.on(terminal)
            return NopDisposable()
        }
        let erased = AnyObserver(observer)
        let entry = hub.add(erased)
        erased.on(.next(value))
        return entry
    }

    public func asObservable() -> Observable<Element> {
        Observable { observer in self.subscribe(observer) }
    }
}
