extension ObservableType {
    /// Subscribes closures to this sequence.
    ///
    /// `onDisposed` runs once, after `onError`/`onCompleted` or when the returned disposable
    /// is disposed, whichever comes first. An error with no `onError` is dropped silently.
    @inlinable public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        let subscriber = ClosureSubscriber(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        subscriber.setUpstream(asObservable().subscribe(erased: AnyObserver(eventHandler: subscriber.on)))
        return subscriber
    }

    /// Subscribes closures that receive `object` weakly, so the subscription does not keep
    /// it alive; events arriving after `object` was freed are dropped.
    @inlinable public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onNext: { [weak object] element in if let object { onNext?(object, element) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

/// The end of a chain: calls the subscriber's closures, then `onDisposed` once.
///
/// Unchecked exclusivity, safe for the reason given on `Sink`: closures are copied into
/// locals before they are called, so no access spans a call.
@usableFromInline final class ClosureSubscriber<Element>: DisposableBase, Cancelable {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var onNext: ((Element) -> Void)?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var onError: ((any Error) -> Void)?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var onCompleted: (() -> Void)?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var onDisposed: (() -> Void)?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var upstream: DisposableBase?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var isDisposed = false
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var isStopped = false

    @inlinable init(
        onNext: ((Element) -> Void)?,
        onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        super.init()
    }

    @inlinable func setUpstream(_ subscription: any Disposable) {
        if isDisposed {
            subscription.dispose()
        } else {
            upstream = BoxedDisposable.classBound(subscription)
        }
    }

    @inlinable func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            if let onNext { onNext(element) }
        case .error(let error):
            isStopped = true
            if let onError { onError(error) }
            dispose()
        case .completed:
            isStopped = true
            if let onCompleted { onCompleted() }
            dispose()
        }
    }

    @inlinable override func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        isStopped = true
        let disposed = onDisposed
        onNext = nil
        onError = nil
        onCompleted = nil
        onDisposed = nil
        let subscription = upstream
        upstream = nil
        subscription?.dispose()
        disposed?()
    }
}
