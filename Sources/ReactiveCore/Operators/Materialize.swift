extension ObservableType {
    /// Emits every event of this sequence as an element (`.next(.next(x))`, then
    /// `.next(.error(e))` or `.next(.completed)`), then completes: the result never fails.
    @inlinable public func materialize() -> Observable<Event<Element>> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = MaterializeSink(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class MaterializeSink<Element>: Sink<Event<Element>> {
    @inlinable func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        forward(event)
        if event.isStopEvent { forwardCompleted() }
    }
}
