/// Another observable type seen as an ``Observable`` (a subject, a relay, a view model's
/// port): subscribing subscribes the source itself. See `Observable` for why `run` is stored.
@usableFromInline final class SourceObservable<Source: ObservableType>: Observable<Source.Element> {
    @usableFromInline let source: Source

    @inlinable init(_ source: Source) {
        self.source = source
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            observable.asRunOwner(SourceObservable<Source>.self).source.subscribe(observer)
        })
    }
}
