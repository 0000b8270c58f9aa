/// A ``PublishSubject`` that can only emit elements: it never errors or completes.
public final class PublishRelay<Element>: ObservableType {
    private let subject = PublishSubject<Element>()

    /// A relay with no observers.
    public init() {}

    /// Emits `element` to the current observers.
    public func accept(_ element: Element) {
        subject.on(.next(element))
    }

    /// Whether some observer is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    public func asObservable() -> Observable<Element> { subject.asObservable() }
}
