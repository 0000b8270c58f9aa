extension ObservableType {
    /// Keeps the elements `isIncluded` accepts; a predicate that throws fails the sequence.
    @inlinable public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> Observable<Element> {
        FilterObservable(source: asObservable(), isIncluded: isIncluded)
    }
}

/// A `filter`: its source and predicate (see `Observable` for why `run` is stored).
@usableFromInline final class FilterObservable<Element>: Observable<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let isIncluded: (Element) throws -> Bool

    @inlinable init(source: Observable<Element>, isIncluded: @escaping (Element) throws -> Bool) {
        self.source = source
        self.isIncluded = isIncluded
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let filter = observable.asRunOwner(FilterObservable<Element>.self)
            let sink = FilterSink(observer, filter.isIncluded)
            sink.setUpstream(filter.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
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
