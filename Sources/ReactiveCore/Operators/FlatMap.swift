extension ObservableType {
    /// Maps each element to an observable and merges the events of all of them.
    ///
    /// Completes when the source and every inner observable completed; the first error from
    /// any of them fails the result and disposes the rest.
    @inlinable public func flatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = FlatMapSink<Element, Inner.Element>(observer) { try selector($0).asObservable() }
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    // `merge(_:)` of a list of sources: Merge.swift.
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the events of the inner observables this source emits.
    @inlinable public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }
}

@usableFromInline final class FlatMapSink<Input, Output>: Sink<Output> {
    @usableFromInline let selector: (Input) throws -> Observable<Output>
    @usableFromInline let inners = CompositeDisposable()
    @usableFromInline var isSourceDone = false

    @inlinable init(_ observer: AnyObserver<Output>, selector: @escaping (Input) throws -> Observable<Output>) {
        self.selector = selector
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            let inner: Observable<Output>
            do { inner = try selector(element) } catch { return forwardError(error) }
            subscribeInner(inner)
        case .error(let error):
            forwardError(error)
        case .completed:
            isSourceDone = true
            if inners.count == 0 { forwardCompleted() }
        }
    }

    @inlinable func subscribeInner(_ inner: Observable<Output>) {
        let subscription = SingleAssignmentDisposable()
        guard let key = inners.insert(subscription) else { return }
        var isInnerDone = false
        let innerObserver = AnyObserver<Output> { event in
            // Strong on purpose: the inner source keeps this sink alive while it may still
            // emit; the cycle ends when the sink is disposed (which disposes `inners`).
            guard !isInnerDone else { return }
            switch event {
            case .next(let element):
                self.forward(element)
            case .error(let error):
                isInnerDone = true
                self.forwardError(error)
            case .completed:
                isInnerDone = true
                self.inners.remove(for: key)
                if self.isSourceDone, self.inners.count == 0 { self.forwardCompleted() }
            }
        }
        subscription.setDisposable(inner.subscribe(erased: innerObserver))
    }

    @inlinable override func disposeResources() {
        inners.dispose()
    }
}
