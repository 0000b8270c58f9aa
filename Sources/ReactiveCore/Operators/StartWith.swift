extension ObservableType {
    /// Emits `elements` first, then the source's events.
    @inlinable public func startWith(_ elements: Element...) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = CreateSink(observer)
            for element in elements {
                guard !sink.isDisposed else { return sink }
                sink.on(.next(element))
            }
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}
