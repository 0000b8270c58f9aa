/// Something that can be turned into an ``Observable`` (observables, subjects, relays, traits).
public protocol ObservableConvertibleType<Element> {
    /// The type of the elements produced.
    associatedtype Element

    /// This sequence as an ``Observable``.
    func asObservable() -> Observable<Element>
}

/// A sequence that observers can subscribe to. Operators are defined on this protocol.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Starts delivering events to `observer` until the returned disposable is disposed
    /// or a terminal event was delivered.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element
}

extension ObservableType {
    @inlinable public func asObservable() -> Observable<Element> {
        SourceObservable(self)
    }
}
