extension ObservableType {
    /// On error, continues with the observable `handler` returns for it; a throwing handler
    /// fails with its own error.
    @inlinable public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let subscription = SerialDisposable()
            let sink = CreateSink(observer)
            let first = SingleAssignmentDisposable()
            subscription.disposable = first
            first.setDisposable(source.subscribe(erased: AnyObserver { event in
                guard case .error(let error) = event else { return sink.on(event) }
                do {
                    let fallback = try handler(error)
                    subscription.disposable = fallback.subscribe(erased: AnyObserver(eventHandler: sink.on))
                } catch {
                    sink.on(.error(error))
                }
            }))
            sink.setUpstream(subscription)
            return sink
        }
    }

    /// On error, emits `element` and completes.
    @inlinable public func catchAndReturn(_ element: Element) -> Observable<Element> {
        self.catch { _ in .just(element) }
    }

    /// On error, completes instead.
    @inlinable public func catchAndComplete() -> Observable<Element> {
        self.catch { _ in .empty() }
    }
}
