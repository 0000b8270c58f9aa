/// The subscription an operator hands back: it receives the upstream's events, forwards
/// (transformed) events downstream, and owns the upstream subscription.
///
/// It enforces the grammar for everything downstream: after a terminal event or `dispose()`
/// nothing is forwarded. A terminal event disposes the upstream first, then is forwarded, so
/// an observer reacting to the end of a sequence can never receive anything from it again.
///
/// Memory: disposing releases the upstream subscription, which is what holds this sink alive
/// (a source keeps its observer, the sink, until unsubscribed), so a disposed chain is freed.
/// `observer` is a `let` on purpose: calling it costs no retain, no exclusivity check, and it
/// can never be freed while it runs; the downstream it points to owns this sink anyway.
///
/// `upstream` is a ``DisposableBase`` (one word, not an opaque existential's five): any other
/// disposable is boxed (see BoxedDisposable.swift); every operator and subject here hands
/// back a `DisposableBase`, so that costs nothing in practice. It also says whether the sink
/// is disposed (`nil`), so no flag pads the object by a word: until the upstream subscription
/// arrives it holds `NopObject.shared` (see Disposables.swift), which is never disposed through
/// it (disposing it would do nothing anyway). Not the sink itself: a sink that never gets an
/// upstream (`fromAsync`'s, `combineLatest`'s) would then keep itself alive.
///
/// Exclusivity: the `var`s are `@exclusivity(unchecked)` because dynamic checks cost more
/// than the rest of an operator on the event path. It is safe because every access is
/// instantaneous: a read copies the value into a local before any call, and a write calls no
/// other code while in progress. No access ever overlaps another.
///
/// Inlinable (with the operators, subjects and `Observable` that use it): every operator is
/// generic, and a client module calling unspecialized generic code pays metadata lookups and
/// witness calls per event (many times slower in vmd-bench's reactive suite). Exposing the bodies
/// lets the module that names the element types specialize the whole chain. Stored
/// properties are `@usableFromInline` (internal, not public) for the same reason.
@usableFromInline class Sink<Output>: DisposableBase, Cancelable {
    @usableFromInline final let observer: AnyObserver<Output>
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var upstream: DisposableBase?

    @inlinable init(_ observer: AnyObserver<Output>) {
        self.observer = observer
        upstream = NopObject.shared
        super.init()
    }

    /// Whether this sink ended or was disposed: nothing is forwarded any more.
    @inlinable final var isDisposed: Bool { upstream == nil }

    /// Keeps `subscription` as the upstream; disposes it at once if this sink already ended
    /// (a source that terminates synchronously during `subscribe`).
    @inlinable final func setUpstream(_ subscription: any Disposable) {
        if isDisposed {
            subscription.dispose()
        } else {
            upstream = BoxedDisposable.classBound(subscription)
        }
    }

    @inline(__always)
    @inlinable final func forward(_ element: Output) {
        if !isDisposed { observer.on(.next(element)) }
    }

    /// Ends this subscription with `error`.
    @inlinable final func forwardError(_ error: any Error) {
        forwardTerminal(.error(error))
    }

    /// Ends this subscription normally.
    @inlinable final func forwardCompleted() {
        forwardTerminal(.completed)
    }

    @inlinable final func forwardTerminal(_ event: Event<Output>) {
        guard !isDisposed else { return }
        dispose()
        observer.on(event)
    }

    @inlinable override final func dispose() {
        guard let subscription = upstream else { return }
        upstream = nil
        if subscription !== NopObject.shared { subscription.dispose() }
        disposeResources()
    }

    /// Releases what a subclass holds besides the upstream (inner subscriptions, timers).
    @inlinable func disposeResources() {}
}
