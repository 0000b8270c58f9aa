extension ObservableType {
    /// Maps an element to an observable and forwards its events, ignoring the source's
    /// elements while that inner is running (the selector is not even called for them): the
    /// first request wins, later taps are dropped until it completes.
    ///
    /// Completes when the source completed and no inner is running; any error fails it.
    @inlinable public func flatMapFirst<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = FlatMapFirstSink<Element, Inner.Element>(observer) { try selector($0).asObservable() }
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class FlatMapFirstSink<Input, Output>: Sink<Output> {
    @usableFromInline let selector: (Input) throws -> Observable<Output>
    @usableFromInline let inner = SerialDisposable()
    @usableFromInline var isInnerActive = false
    @usableFromInline var isSourceDone = false

    @inlinable init(_ observer: AnyObserver<Output>, selector: @escaping (Input) throws -> Observable<Output>) {
        self.selector = selector
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed, !isInnerActive else { return }
            let next: Observable<Output>
            do { next = try selector(element) } catch { return forwardError(error) }
            isInnerActive = true
            subscribeInner(next, in: inner) { self.innerCompleted() }
        case .error(let error):
            forwardError(error)
        case .completed:
            isSourceDone = true
            if !isInnerActive { forwardCompleted() }
        }
    }

    @inlinable func innerCompleted() {
        isInnerActive = false
        // Release the finished inner's resources now.
        inner.disposable = Disposables.create()
        if isSourceDone { forwardCompleted() }
    }

    @inlinable override func disposeResources() {
        inner.dispose()
    }
}
