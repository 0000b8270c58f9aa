/// A `distinctUntilChanged()` of `Equatable` elements: its source (see `Observable` for why
/// `run` is stored).
///
/// Its own class rather than `distinctUntilChanged(==)`: its sink compares with `==` itself,
/// so it holds no comparer closure (one malloc chunk size smaller per subscription; a view model's state chain usually ends with one) and calls none per element.
@usableFromInline final class EquatableDistinctObservable<Element: Equatable>: Observable<Element> {
    @usableFromInline let source: Observable<Element>

    @inlinable init(source: Observable<Element>) {
        self.source = source
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let distinct = observable.asRunOwner(EquatableDistinctObservable<Element>.self)
            let sink = EquatableDistinctSink(observer)
            sink.setUpstream(distinct.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}

/// The sink of ``EquatableDistinctObservable``: forwards an element unless it equals the
/// previous one.
@usableFromInline final class EquatableDistinctSink<Element: Equatable>: Sink<Element> {
    // Unchecked exclusivity: read into a local and assigned; never accessed across a call.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var previous: Element?

    @inlinable override init(_ observer: AnyObserver<Element>) {
        previous = nil
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            if let previous, previous == element { return }
            previous = element
            forward(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
