extension ObservableType {
    /// On each element of this source, emits `resultSelector` of it and the latest element of
    /// `second`; elements arriving before `second` emitted are dropped.
    ///
    /// Completes when this source completes (when `second` completes, it is unsubscribed and
    /// its latest element kept); an error of either fails it. `second` is subscribed first, so a value it replays on
    /// subscription is available to this source's first element.
    @inlinable public func withLatestFrom<Second: ObservableConvertibleType, Result>(
        _ second: Second,
        resultSelector: @escaping (Element, Second.Element) throws -> Result
    ) -> Observable<Result> {
        let source = asObservable()
        let other = second.asObservable()
        return Observable.make { observer in
            let sink = WithLatestFromSink<Element, Second.Element, Result>(observer, resultSelector: resultSelector)
            sink.run(source: source, other: other)
            return sink
        }
    }

    /// On each element of this source, emits the latest element of `second`.
    @inlinable public func withLatestFrom<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Second.Element> {
        withLatestFrom(second) { $1 }
    }
}

@usableFromInline final class WithLatestFromSink<Input, Other, Output>: Sink<Output> {
    @usableFromInline let resultSelector: (Input, Other) throws -> Output
    @usableFromInline var latest: Other?
    @usableFromInline let otherSubscription = SingleAssignmentDisposable()

    @inlinable init(_ observer: AnyObserver<Output>, resultSelector: @escaping (Input, Other) throws -> Output) {
        self.resultSelector = resultSelector
        super.init(observer)
    }

    @inlinable func run(source: Observable<Input>, other: Observable<Other>) {
        otherSubscription.setDisposable(other.subscribe(erased: AnyObserver { event in
            switch event {
            case .next(let value): self.latest = value
            case .error(let error): self.forwardError(error)
            case .completed: self.otherSubscription.dispose()
            }
        }))
        guard !isDisposed else { return }
        setUpstream(source.subscribe(erased: AnyObserver(eventHandler: on)))
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed, let latest else { return }
            do {
                forward(try resultSelector(element, latest))
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    @inlinable override func disposeResources() {
        otherSubscription.dispose()
    }
}
