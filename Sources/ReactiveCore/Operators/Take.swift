extension ObservableType {
    /// Forwards the first `count` elements, then completes (and unsubscribes from the source).
    /// A count of zero or less completes at once without subscribing.
    @inlinable public func take(_ count: Int) -> Observable<Element> {
        let source = asObservable()
        guard count > 0 else { return .empty() }
        return Observable.make { observer in
            var remaining = count
            let sink = CreateSink(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver { event in
                guard case .next = event else { return sink.on(event) }
                guard remaining > 0 else { return }
                remaining -= 1
                sink.on(event)
                if remaining == 0 { sink.on(.completed) }
            }))
            return sink
        }
    }

    /// Forwards elements until `other` emits an element (then completes); an error of
    /// `other` fails it; when `other` completes without an element it is unsubscribed and the
    /// elements keep coming.
    @inlinable public func take<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let trigger = other.asObservable()
        return Observable.make { observer in
            let sink = CreateSink(observer)
            let triggerSubscription = SingleAssignmentDisposable()
            triggerSubscription.setDisposable(trigger.subscribe(erased: AnyObserver { event in
                switch event {
                case .next: sink.on(.completed)
                case .error(let error): sink.on(.error(error))
                case .completed: triggerSubscription.dispose()
                }
            }))
            guard !sink.isDisposed else { return sink }
            sink.setUpstream(Disposables.create(triggerSubscription, source.subscribe(erased: AnyObserver(eventHandler: sink.on))))
            return sink
        }
    }

    /// Forwards elements while `predicate` holds; completes at the first that fails it.
    @inlinable public func take(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = CreateSink(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver { event in
                guard case .next(let element) = event else { return sink.on(event) }
                do {
                    sink.on(try predicate(element) ? event : .completed)
                } catch {
                    sink.on(.error(error))
                }
            }))
            return sink
        }
    }
}
