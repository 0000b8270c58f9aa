extension ObservableType {
    /// Maps each element to an observable and forwards their events one after the other:
    /// an inner is subscribed when the previous one completed (the mapped observables wait in
    /// a queue).
    ///
    /// `selector` runs when the element arrives, as in RxSwift, not when its inner's turn
    /// comes: it reads the state of that moment, and a selector that throws fails the result
    /// at once. Completes when the source and every inner completed; any error fails it.
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
    /// Inners already mapped, waiting for the running one to complete.
    @usableFromInline var waiting: [Observable<Output>] = []
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
            let next: Observable<Output>
            do { next = try selector(element) } catch { return forwardError(error) }
            if isInnerActive {
                waiting.append(next)
            } else {
                subscribeInner(next)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            isSourceDone = true
            if !isInnerActive { forwardCompleted() }
        }
    }

    @inlinable func subscribeInner(_ next: Observable<Output>) {
        isInnerActive = true
        subscribeInner(next, in: inner) { self.innerCompleted() }
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
