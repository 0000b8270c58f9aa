/// A value that carries an ``Event``: what ``ObservableType/dematerialize()`` turns back into
/// events. ``Event`` itself conforms.
public protocol EventConvertible<Element> {
    /// The type of the elements the event may carry.
    associatedtype Element

    /// The event this value stands for.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    @inlinable public var event: Event<Element> { self }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events (the inverse of
    /// ``ObservableType/materialize()``): an element `.error(e)` fails the result, `.completed`
    /// completes it. The source's own error or completion ends it too.
    @inlinable public func dematerialize() -> Observable<Element.Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = DematerializeSink<Element>(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class DematerializeSink<Carrier: EventConvertible>: Sink<Carrier.Element> {
    @inlinable func on(_ event: Event<Carrier>) {
        switch event {
        case .next(let carrier):
            switch carrier.event {
            case .next(let element): forward(element)
            case .error(let error): forwardError(error)
            case .completed: forwardCompleted()
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
