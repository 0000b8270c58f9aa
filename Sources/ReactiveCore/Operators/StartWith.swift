extension ObservableType {
    /// Emits `elements` first, then the source's events.
    @inlinable public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWithObservable(source: asObservable(), elements: elements)
    }

    /// Emits `element` first, then the source's events: the variadic `startWith` with one
    /// element, chosen by a call with one argument. No array is made for it (an allocation
    /// per chain built, as in a view model's usual `scan(…).startWith(start)`).
    ///
    /// Consuming, so that a chain's temporary is the caller's only reference: right after a
    /// `scan` nothing else holds, that scan takes the element on itself (ScanFusing.swift).
    @inlinable public consuming func startWith(_ element: Element) -> Observable<Element> {
        var source = (consume self).asObservable()
        let alone = isKnownUniquelyReferenced(&source)
        // Right after a `scan`, the scan's own sink emits it (ScanFusing.swift).
        if let scan = source as? ScanFusing<Element>, let fused = scan.fuseStart(element, alone: alone) { return fused }
        return StartWithObservable(source: source, elements: CollectionOfOne(element))
    }
}

/// A `startWith`: its source and first elements (see `Observable` for why `run` is stored).
///
/// Over a source whose subscription ends itself (`Observable.endsItsSubscription`: every
/// operator with a sink, `scan` in a view model's usual `scan(…).startWith(…)`) it has no sink
/// of its own, as RxSwift's `startWith` has none: the elements go to the observer during
/// `subscribe`, then the source is subscribed with that same observer and its subscription is
/// the result. The observer sees the same events, and the subscription is disposed at the
/// same moments: the observer cannot hold it before `subscribe` returns, so nothing can
/// dispose it while the elements are emitted, and the source's sink disposes it before a
/// terminal event goes on, as this operator's sink did. Every idle subscription spares an
/// object and every later event one call (`vmd-bench create`,
/// `.ci/instructions`, `send`). Over any other source (a subject, a foreign `ObservableType`)
/// a sink still ends the source's subscription on its terminal event.
///
/// Generic over how the first elements are held: an array, or one element held as it is. (Not
/// an enum of the two: a class's `deinit` does not specialize, and destroying an enum with a
/// generic payload there looked its metadata up on every chain freed.)
@usableFromInline final class StartWithObservable<Element, Elements: Sequence<Element>>: Observable<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let elements: Elements

    @inlinable init(source: Observable<Element>, elements: Elements) {
        self.source = source
        self.elements = elements
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let startWith = observable.asRunOwner(StartWithObservable<Element, Elements>.self)
            if startWith.source.endsItsSubscription {
                for element in startWith.elements {
                    observer.on(.next(element))
                }
                return startWith.source.subscribe(erased: observer)
            }
            let sink = CreateSink(observer)
            for element in startWith.elements {
                guard !sink.isDisposed else { return sink }
                sink.on(.next(element))
            }
            sink.setUpstream(startWith.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}
