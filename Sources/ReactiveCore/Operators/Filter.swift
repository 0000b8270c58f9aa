extension ObservableType {
    /// Keeps the elements `isIncluded` accepts; a predicate that throws fails the sequence.
    @inlinable public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = FilterSink(observer, isIncluded)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class FilterSink<Element>: Sink<Element> {
    @usableFromInline let isIncluded: (Element) throws -> Bool

    @inlinable init(_ observer: AnyObserver<Element>, _ isIncluded: @escaping (Element) throws -> Bool) {
        self.isIncluded = isIncluded
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if try isIncluded(element) {
                    forward(element)
                }
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
