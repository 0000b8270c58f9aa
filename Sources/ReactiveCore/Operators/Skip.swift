extension ObservableType {
    /// Drops the first `count` elements.
    @inlinable public func skip(_ count: Int) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            var remaining = count
            let sink = CreateSink(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                sink.on(event)
            }))
            return sink
        }
    }
}
