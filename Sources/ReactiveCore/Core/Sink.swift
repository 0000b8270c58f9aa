/// The subscription an operator hands back: it receives the upstream's events, forwards
/// (transformed) events downstream, and owns the upstream subscription.
///
/// It enforces the grammar for everything downstream: after a terminal event or `dispose()`
/// nothing is forwarded. A terminal event disposes the upstream first, then is forwarded, so
/// an observer reacting to the end of a sequence can never receive anything from it again.
/// Disposing drops the downstream observer, which breaks the reference cycles subjects form.
class Sink<Output>: Cancelable {
    final var observer: AnyObserver<Output>
    final private(set) var isDisposed = false
    private final var upstream: (any Disposable)?

    init(_ observer: AnyObserver<Output>) {
        self.observer = observer
    }

    /// Keeps `subscription` as the upstream; disposes it at once if this sink already ended
    /// (a source that terminates synchronously during `subscribe`).
    final func setUpstream(_ subscription: any Disposable) {
        if isDisposed {
            subscription.dispose()
        } else {
            upstream = subscription
        }
    }

    @inline(__always)
    final func forward(_ element: Output) {
        if !isDisposed { observer.on(.next(element)) }
    }

    /// Ends this subscription with `error`.
    final func forwardError(_ error: any Error) {
        forwardTerminal(.error(error))
    }

    /// Ends this subscription normally.
    final func forwardCompleted() {
        forwardTerminal(.completed)
    }

    final func forwardTerminal(_ event: Event<Output>) {
        guard !isDisposed else { return }
        let downstream = observer
        dispose()
        downstream.on(event)
    }

    final func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        observer = .discarding
        let subscription = upstream
        upstream = nil
        subscription?.dispose()
        disposeResources()
    }

    /// Releases what a subclass holds besides the upstream (inner subscriptions, timers).
    func disposeResources() {}
}
