/// What the operators with more than one source share: subscribing a list of sources into
/// their slots, and subscribing one inner observable at a time.
extension Sink {
    /// Subscribes each of `sources` into its slot of `subscriptions`, handing its events to
    /// `handler` with its index; stops once this sink ended (a source that failed at once).
    @inlinable final func subscribeEach<Value>(
        _ sources: [Observable<Value>],
        into subscriptions: [SingleAssignmentDisposable],
        _ handler: @escaping (Event<Value>, Int) -> Void
    ) {
        for (index, source) in sources.enumerated() {
            guard !isDisposed else { return }
            subscriptions[index].setDisposable(source.subscribe(erased: AnyObserver { event in
                handler(event, index)
            }))
        }
    }

    /// Subscribes `inner` into the serial slot `current` (disposing the previous inner):
    /// its elements are forwarded, its error ends this sink, its completion calls
    /// `completed`. Nothing after its own terminal event goes through.
    @inlinable final func subscribeInner(
        _ inner: Observable<Output>, in current: SerialDisposable, completed: @escaping () -> Void
    ) {
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        var isDone = false
        subscription.setDisposable(inner.subscribe(erased: AnyObserver { event in
            // Strong capture of the sink: see FlatMapSink.
            guard !isDone else { return }
            switch event {
            case .next(let element):
                self.forward(element)
            case .error(let error):
                isDone = true
                self.forwardError(error)
            case .completed:
                isDone = true
                completed()
            }
        }))
    }
}
