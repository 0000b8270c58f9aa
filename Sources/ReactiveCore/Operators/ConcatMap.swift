extension ObservableType {
    /// Maps each element to an observable and forwards their events one after the other:
    /// an inner is subscribed when the previous one completed (elements wait in a queue).
    ///
    /// Completes when the source and every inner completed; any error fails it.
    @inlinable public func concatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = ConcatMapSink<Element, Inner.Element>(observer) { try selector($0).asObservable() }
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// This sequence's events, then, once it completed, those of `second`.
    @inlinable public func concat<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Element> where Second.Element == Element {
        Observable.from([asObservable(), second.asObservable()]).concatMap { $0 }
    }
}

@usableFromInline final class ConcatMapSink<Input, Output>: Sink<Output> {
    @usableFromInline let selector: (Input) throws -> Observable<Output>
    @usableFromInline var waiting: [Input] = []
    @usableFromInline var waitingStart = 0
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
            guard !isDisposed else { return }
            if isInnerActive {
                waiting.append(element)
            } else {
                subscribeInner(element)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            isSourceDone = true
            if !isInnerActive { forwardCompleted() }
        }
    }

    @inlinable func subscribeInner(_ element: Input) {
        let next: Observable<Output>
        do { next = try selector(element) } catch { return forwardError(error) }
        isInnerActive = true
        let subscription = SingleAssignmentDisposable()
        inner.disposable = subscription
        var isDone = false
        subscription.setDisposable(next.subscribe(erased: AnyObserver { event in
            // Strong capture: see FlatMapSink.
            guard !isDone else { return }
            switch event {
            case .next(let element):
                self.forward(element)
            case .error(let error):
                isDone = true
                self.forwardError(error)
            case .completed:
                isDone = true
                self.innerCompleted()
            }
        }))
    }

    @inlinable func innerCompleted() {
        isInnerActive = false
        guard !isDisposed else { return }
        if waitingStart < waiting.count {
            let next = waiting[waitingStart]
            waitingStart += 1
            if waitingStart == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingStart = 0
            }
            subscribeInner(next)
        } else {
            // Release the finished inner's resources now.
            inner.disposable = Disposables.create()
            if isSourceDone { forwardCompleted() }
        }
    }

    @inlinable override func disposeResources() {
        waiting.removeAll()
        inner.dispose()
    }
}
