extension ObservableType {
    /// Merges the events of `sources` (see ``flatMap(_:)`` for completion and errors).
    @inlinable public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        // Two to four sources (a view model's inputs, usually) are held without an array
        // (SmallMergeObservable.swift), and `sources` never escapes this call otherwise (the
        // rest merge a copy): once inlined, the caller's variadic array can live on its stack.
        switch sources.count {
        case 2: SmallMergeObservable(sources[0], sources[1], nil, nil)
        case 3: SmallMergeObservable(sources[0], sources[1], sources[2], nil)
        case 4: SmallMergeObservable(sources[0], sources[1], sources[2], sources[3])
        default: merge(sources.map { $0 })
        }
    }

    /// Merges the events of `sources`: subscribes them in order and forwards every element as
    /// it comes; completes once every source completed; the first error fails the result and
    /// disposes the other sources (the same events as `Observable.from(sources).flatMap { $0 }`).
    ///
    /// Its own operator rather than that composition: a view model merges a fixed list of
    /// inputs once per instance, and one object per source (instead of a subscription box, an
    /// observer closure, a completion flag and a group entry, behind a `from` sink and a
    /// `flatMap` sink) halves what subscribing and disposing a merge allocates
    /// (`.ci/instructions`, `create`).
    @inlinable public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeObservable(sources: sources)
    }
}

/// A `merge`: its sources (see `Observable` for why `run` is stored).
@usableFromInline final class MergeObservable<Element>: Observable<Element> {
    @usableFromInline let sources: [Observable<Element>]

    @inlinable init(sources: [Observable<Element>]) {
        self.sources = sources
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let merge = observable.asRunOwner(MergeObservable<Element>.self)
            let sink = MergeObserverSink(observer)
            merge.subscribeSources(into: sink)
            return sink
        }, endsItsSubscription: true)
    }

    /// Subscribes the sources as `sink`'s (its own subscription, or a fused `scan`'s).
    @inlinable func subscribeSources(into sink: MergeSink<Element>) {
        sink.run(sources)
    }
}

/// One source of a merge: its observer and its subscription.
///
/// It holds the sink strongly on purpose: the source keeps this observer alive while it may
/// still emit; the cycle ends when the sink is disposed (which disposes every source).
/// Exclusivity unchecked, as on ``MergeSink``: the subscription is moved into a local before
/// it is disposed.
@usableFromInline final class MergeSource<Element>: MergeSubscription {
    @usableFromInline let sink: MergeSink<Element>

    @inlinable init(sink: MergeSink<Element>) {
        self.sink = sink
        super.init()
    }

    @inlinable func on(_ event: Event<Element>) {
        guard !isDone else { return }
        switch event {
        case .next(let element):
            sink.forward(element)
        case .error(let error):
            sink.source(self, endedWith: error)
        case .completed:
            sink.source(self, endedWith: nil)
        }
    }
}
