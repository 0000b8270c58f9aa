/// A `merge` of two to four sources (see `Observable` for why `run` is stored).
///
/// The sources are stored properties, not an array: a view model merges its few inputs once
/// per instance, and the variadic `merge`'s array was one more allocation per chain built,
/// freed (each element destroyed through its type's metadata) as soon as the chain was
/// subscribed (`.ci/instructions`, `create`; ViewModelDaemon.docc/Performance.md). The
/// subscription is the same ``MergeSink`` as ``MergeObservable``'s, so the events are too; a `scan`
/// over it subscribes the sources itself (``MergeScanSink``).
@usableFromInline final class SmallMergeObservable<Element>: Observable<Element> {
    @usableFromInline let first: Observable<Element>
    @usableFromInline let second: Observable<Element>
    @usableFromInline let third: Observable<Element>?
    @usableFromInline let fourth: Observable<Element>?

    @inlinable init(
        _ first: Observable<Element>, _ second: Observable<Element>, _ third: Observable<Element>?,
        _ fourth: Observable<Element>?
    ) {
        self.first = first
        self.second = second
        self.third = third
        self.fourth = fourth
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let merge = observable.asRunOwner(SmallMergeObservable<Element>.self)
            let sink = MergeObserverSink(observer)
            merge.subscribeSources(into: sink)
            return sink
        }, endsItsSubscription: true)
    }

    /// Subscribes the sources as `sink`'s (its own subscription, or a fused `scan`'s).
    @inlinable func subscribeSources(into sink: MergeSink<Element>) {
        sink.run(first, second, third, fourth)
    }
}
