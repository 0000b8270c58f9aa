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
            // A `PublishSubject` seen through its `asObservable()` (an action's `elements`),
            // tested here: a call to the function below would not be inlined for it.
            if let subject = map.source as? SourceObservable<PublishSubject<Source.Element>> {
                let hub = subject.source
                if hub.attachesAsSubscribed {
                    merge.add(source, attachedTo: hub)
                } else {
                    merge.add(source) { hub.subscribe(source) }
                }
                return
            }
            if Self.attach(source, directlyTo: map.source, in: merge) { return }
            merge.add(source) { map.source.subscribe(source) }
        }, endsItsSubscription: true)
    }

    /// Makes `source` a running source of `merge` attached to `candidate` (the map's source) as
    /// its entry, without a subscription passing through an existential, when `candidate` is a
    /// subject that only attaches its entries (an input, a running `PublishSubject`); false,
    /// doing nothing, for any other source. The cast resolves at compile time where `Source`
    /// is a final class, as an input is; `candidate` is borrowed from the map for the call, not
    /// retained and released around it as the closure's cast of `map.source` was.
    @inlinable static func attach(
        _ source: MergeMapSource<Source.Element, Result>, directlyTo candidate: Source, in merge: MergeSink<Result>
    ) -> Bool {
        guard let hub = candidate as? ObserverHub<Source.Element>, hub.attachesAsSubscribed else { return false }
        merge.add(source, attachedTo: hub)
        return true
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
