extension ObservableType {
    /// Transforms each element; a transform that throws fails the sequence.
    ///
    /// The source is kept as it is, not as `asObservable()`: mapping a subject or a view
    /// model's port (the usual first step of a chain) then needs no wrapping observable, an
    /// object and a closure built and freed per chain (`.ci/instructions`, `create`).
    @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        MapObservable(source: self, transform: transform)
    }
}

/// A `map`: its source and transform (see `Observable` for why `run` is stored).
@usableFromInline final class MapObservable<Source: ObservableType, Result>: Observable<Result> {
    @usableFromInline let source: Source
    @usableFromInline let transform: (Source.Element) throws -> Result

    @inlinable init(source: Source, transform: @escaping (Source.Element) throws -> Result) {
        self.source = source
        self.transform = transform
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let map = observable.asRunOwner(MapObservable<Source, Result>.self)
            let sink = MapSink(observer, map.transform)
            sink.setUpstream(map.source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }, mergeRun: { observable, merge in
            // Always this class, as above.
            let map = observable.asRunOwner(MapObservable<Source, Result>.self)
            let source = MergeMapSource(sink: merge, transform: map.transform)
            // A subject that only attaches its entries (an input, a running `PublishSubject`)
            // is given the source as its entry directly; so is a `PublishSubject` seen through
            // its `asObservable()` (an action's `elements`). Each cast resolves at compile time
            // where `Source` is a final class, as an input is.
            if let hub = map.source as? ObserverHub<Source.Element> {
                if hub.attachesAsSubscribed {
                    merge.add(source, attachedTo: hub)
                    return
                }
            } else if let subject = map.source as? SourceObservable<PublishSubject<Source.Element>> {
                let hub = subject.source
                if hub.attachesAsSubscribed {
                    merge.add(source, attachedTo: hub)
                    return
                }
                merge.add(source) { hub.subscribe(source) }
                return
            }
            merge.add(source) { map.source.subscribe(source) }
        }, endsItsSubscription: true)
    }
}

@usableFromInline final class MapSink<Input, Output>: Sink<Output> {
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable init(_ observer: AnyObserver<Output>, _ transform: @escaping (Input) throws -> Output) {
        self.transform = transform
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                forward(try transform(element))
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
