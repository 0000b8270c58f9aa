/// A type-erased observer: a closure receiving events.
public struct AnyObserver<Element>: ObserverType {
    /// The closure every event is handed to.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline
    let handler: EventHandler

    /// An observer calling `eventHandler` for each event.
    @inlinable public init(eventHandler: @escaping EventHandler) {
        self.handler = eventHandler
    }

    /// An observer forwarding to `observer`.
    @inlinable public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let erased = observer as? AnyObserver<Element> {
            self.handler = erased.handler
        } else {
            self.handler = observer.on
        }
    }

    @inlinable
    public func on(_ event: Event<Element>) { handler(event) }

    /// An observer of `Source` values that transforms them into this observer's elements;
    /// a transform that throws sends the error.
    @inlinable public func mapObserver<Source>(_ transform: @escaping (Source) throws -> Element) -> AnyObserver<Source> {
        let handler = self.handler
        return AnyObserver<Source> { event in handler(event.map(transform)) }
    }
}
