extension ObservableType {
    /// Maps each element to an observable and forwards only the latest one's events: a new
    /// element disposes the previous inner subscription before subscribing to the next.
    ///
    /// Completes when the source completed and the current inner completed; any error fails
    /// the result.
    @inlinable public func flatMapLatest<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = FlatMapLatestSink<Element, Inner.Element>(observer) { try selector($0).asObservable() }
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Forwards the events of the latest inner observable (see ``flatMapLatest(_:)``).
    @inlinable public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}

@usableFromInline final class FlatMapLatestSink<Input, Output>: Sink<Output> {
    @usableFromInline let selector: (Input) throws -> Observable<Output>
    @usableFromInline let inner = SerialDisposable()
    @usableFromInline var generation = 0
    @usableFromInline var hasActiveInner = false
    @usableFromInline var isSourceDone = false

    @inlinable init(_ observer: AnyObserver<Output>, selector: @escaping (Input) throws -> Observable<Output>) {
        self.selector = selector
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            let next: Observable<Output>
            do { next = try selector(element) } catch { return forwardError(error) }
            generation &+= 1
            let current = generation
            hasActiveInner = true
            // Dispose the previous inner before subscribing the new one.
            let subscription = SingleAssignmentDisposable()
            inner.disposable = subscription
            subscription.setDisposable(next.subscribe(erased: AnyObserver { event in
                // Strong capture: see FlatMapSink. The generation check drops anything a
                // replaced inner might still send.
                guard current == self.generation else { return }
                switch event {
                case .next(let element):
                    self.forward(element)
                case .error(let error):
                    self.forwardError(error)
                case .completed:
                    self.hasActiveInner = false
                    // Release the finished inner's resources now, not at the next switch.
                    self.inner.disposable = Disposables.create()
                    if self.isSourceDone { self.forwardCompleted() }
                }
            }))
        case .error(let error):
            forwardError(error)
        case .completed:
            isSourceDone = true
            if !hasActiveInner { forwardCompleted() }
        }
    }

    @inlinable override func disposeResources() {
        inner.dispose()
    }
}
