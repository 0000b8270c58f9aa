extension ObservableType {
    /// Emits `elements` first, then the source's events.
    @inlinable public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWithObservable(source: asObservable(), elements: elements)
    }
}

/// A `startWith`: its source and first elements (see `Observable` for why `run` is stored).
@usableFromInline final class StartWithObservable<Element>: Observable<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let elements: [Element]

    @inlinable init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let startWith = unsafeDowncast(observable, to: StartWithObservable<Element>.self)
            let sink = CreateSink(observer)
            for element in startWith.elements {
                guard !sink.isDisposed else { return sink }
                sink.on(.next(element))
            }
            sink.setUpstream(startWith.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        })
    }
}
