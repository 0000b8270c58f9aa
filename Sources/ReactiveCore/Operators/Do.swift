extension ObservableType {
    /// Runs side effects on the events passing through, before forwarding them.
    ///
    /// `onSubscribe` runs before subscribing upstream, `onSubscribed` after, `onDispose`
    /// once when the subscription ends (by a terminal event or disposal). In RxSwift's order:
    /// after a terminal event, `onDispose` runs once the downstream has heard that event and
    /// the upstream is released; for a source that ends while being subscribed (`just`),
    /// it runs after `onSubscribed`, so a flag raised in `onSubscribed` and lowered in
    /// `onDispose` ends lowered. A throwing `onNext` fails the sequence.
    @inlinable public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            onSubscribe?()
            let sink = DoSink(observer, onNext: onNext, onError: onError, onCompleted: onCompleted, onDispose: onDispose)
            let subscription = source.subscribe(erased: AnyObserver(eventHandler: sink.on))
            onSubscribed?()
            sink.setUpstream(subscription)
            sink.finishHolding()
            return sink
        }
    }
}

@usableFromInline final class DoSink<Element>: Sink<Element> {
    @usableFromInline let onNext: ((Element) throws -> Void)?
    @usableFromInline let onError: ((any Error) -> Void)?
    @usableFromInline let onCompleted: (() -> Void)?
    @usableFromInline var onDispose: (() -> Void)?
    /// While the subscription is being made or a terminal event forwarded, `onDispose` waits
    /// (`isDisposePending`) until that is over.
    @usableFromInline var isHoldingDispose = true
    @usableFromInline var isDisposePending = false

    @inlinable init(
        _ observer: AnyObserver<Element>,
        onNext: ((Element) throws -> Void)?,
        onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDispose: (() -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDispose = onDispose
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            do {
                try onNext?(element)
                forward(element)
            } catch {
                end(.error(error))
            }
        case .error(let error):
            onError?(error)
            end(.error(error))
        case .completed:
            onCompleted?()
            end(.completed)
        }
    }

    /// Forwards a terminal event, then runs `onDispose` (unless the subscription is still
    /// being made: then `finishHolding` runs it).
    @inlinable func end(_ event: Event<Element>) {
        let wasHolding = isHoldingDispose
        isHoldingDispose = true
        forwardTerminal(event)
        isHoldingDispose = wasHolding
        if !wasHolding { finishHolding() }
    }

    /// Stops holding `onDispose` back, running it if the subscription ended meanwhile.
    @inlinable func finishHolding() {
        isHoldingDispose = false
        guard isDisposePending else { return }
        isDisposePending = false
        runOnDispose()
    }

    @inlinable func runOnDispose() {
        let action = onDispose
        onDispose = nil
        action?()
    }

    @inlinable override func disposeResources() {
        if isHoldingDispose {
            isDisposePending = true
        } else {
            runOnDispose()
        }
    }
}
