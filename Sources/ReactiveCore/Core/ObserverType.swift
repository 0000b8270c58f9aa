/// Something that receives the events of a sequence.
///
/// Observers are called on the graph's thread (see ``Observable``) and must not be called
/// concurrently. The producer, not the observer, is responsible for the grammar
/// `next* (error | completed)?`.
public protocol ObserverType<Element> {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable
    public func onNext(_ element: Element) { on(.next(element)) }

    /// Sends `.error(error)`.
    @inlinable
    public func onError(_ error: any Error) { on(.error(error)) }

    /// Sends `.completed`.
    @inlinable
    public func onCompleted() { on(.completed) }

    /// A type-erased observer forwarding to this one.
    @inlinable public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}
