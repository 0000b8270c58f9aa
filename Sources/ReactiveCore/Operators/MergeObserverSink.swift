/// The subscription of a `merge` observed by anything but a fused `scan`
/// (``SmallMergeObservable``, ``MergeObservable``): hands every event to its observer.
@usableFromInline final class MergeObserverSink<Element>: MergeSink<Element> {
    /// A `let`, as on `Sink`: calling it costs no retain and no exclusivity check.
    @usableFromInline let observer: AnyObserver<Element>

    @inlinable init(_ observer: AnyObserver<Element>) {
        self.observer = observer
        super.init(receiver: { sink, event in
            // Always this class: only this initializer stores this function.
            sink.asReceiverOwner(MergeObserverSink<Element>.self).observer.on(event)
        })
    }
}
