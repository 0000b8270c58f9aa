/// What a merge holds of one source, without its element type: the subscription and whether
/// the source ended. ``MergeSource`` adds the observer.
///
/// Not generic so that disposing a merge, which runs unspecialized (see `MergeSink`), needs
/// no type metadata looked up. Exclusivity unchecked, as on `MergeSink`: the subscription is
/// moved into a local before it is disposed.
@usableFromInline class MergeSubscription: Disposable {
    @exclusivity(unchecked) @usableFromInline final var subscription: (any Disposable & AnyObject)?
    @exclusivity(unchecked) @usableFromInline final var isDone: Bool

    @inlinable init() {
        subscription = nil
        isDone = false
    }

    @inlinable final func setSubscription(_ subscription: any Disposable) {
        if isDone {
            subscription.dispose()
        } else {
            self.subscription = BoxedDisposable.classBound(subscription)
        }
    }

    @inlinable final func dispose() {
        isDone = true
        let ending = subscription
        subscription = nil
        ending?.dispose()
    }
}
