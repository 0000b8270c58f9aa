/// A ``BehaviorSubject`` that can only emit elements: it has a current ``value`` and never
/// errors or completes.
public final class BehaviorRelay<Element>: ObservableType {
    @usableFromInline let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    @inlinable public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The last element delivered (see ``PublishSubject`` for re-entrant sends).
    @inlinable public var value: Element { subject.value }

    /// Makes `element` the current value and emits it.
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
