/// The subscription of a `distinctUntilChanged`: the previous element, compared with each new one.
@usableFromInline final class DistinctUntilChangedSink<Element>: Sink<Element> {
    @usableFromInline let areEqual: (Element, Element) throws -> Bool
    // Unchecked exclusivity: read into a local and assigned; never accessed across a call.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var previous: Element?

    @inlinable init(_ observer: AnyObserver<Element>, _ areEqual: @escaping (Element, Element) throws -> Bool) {
        self.areEqual = areEqual
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if let previous, try areEqual(previous, element) { return }
                previous = element
                forward(element)
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
