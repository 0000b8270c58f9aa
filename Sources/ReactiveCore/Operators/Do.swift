extension ObservableType {
    /// Runs side effects on the events passing through, before forwarding them.
    ///
    /// `onSubscribe` runs before subscribing upstream, `onSubscribed` after, `onDispose`
    /// when the subscription ends (by a terminal event or disposal). A throwing `onNext`
    /// fails the sequence.
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
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            onSubscribed?()
            return sink
        }
    }
}

@usableFromInline final class DoSink<Element>: Sink<Element> {
    @usableFromInline let onNext: ((Element) throws -> Void)?
    @usableFromInline let onError: ((any Error) -> Void)?
    @usableFromInline let onCompleted: (() -> Void)?
    @usableFromInline var onDispose: (() -> Void)?

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
                forwardError(error)
            }
        case .error(let error):
            onError?(error)
            forwardError(error)
        case .completed:
            onCompleted?()
            forwardCompleted()
        }
    }

    @inlinable override func disposeResources() {
        let action = onDispose
        onDispose = nil
        action?()
    }
}
