/// A ``PublishSubject`` that can only emit elements: it never errors or completes.
public final class PublishRelay<Element>: ObservableType {
    @usableFromInline let subject = PublishSubject<Element>()

    /// A relay with no observers.
    @inlinable public init() {}

    /// Emits `element` to the current observers.
    @inlinable public func accept(_ element: Element) {
        subject.on(.next(element))
    }

    /// Whether some observer is subscribed.
    @inlinable public var hasObservers: Bool { subject.hasObservers }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    @inlinable public func asObservable() -> Observable<Element> { subject.asObservable() }
}
