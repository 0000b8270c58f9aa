/// What a merge holds of one source, without its element type: the subscription and whether
/// the source ended. ``MergeSource`` adds the observer.
///
/// Not generic so that disposing a merge, which runs unspecialized (see `MergeSink`), needs
/// no type metadata looked up. Exclusivity unchecked, as on `MergeSink`: the subscription is
/// moved into a local before it is disposed.
///
/// One field says both: `subscription` is `nil` once the source ended (`isDone`), and a
/// placeholder, this object itself (never disposed through it), until the source's
/// subscription arrives; the cycle that makes lasts only until then or until the source ends.
/// Without a separate flag, and with `subscription` a ``DisposableBase`` (one word), a
/// `MergeSource` and a ``MergeMapSource`` each fit a smaller malloc chunk.
@usableFromInline class MergeSubscription: DisposableBase {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var subscription: DisposableBase?
    /// The source its merge linked before it (see `MergeSink`), until the merge is disposed.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var next: MergeSubscription?

    @inlinable override init() {
        subscription = nil
        next = nil
        super.init()
        subscription = self
    }

    /// For a subject's entry that is not a merge's source (`ObserverHub.Entry`): no
    /// placeholder, so no cycle; its `subscription` stays `nil`.
    @inlinable init(outsideMerge: Void) {
        subscription = nil
        next = nil
        super.init()
    }

    /// Whether the source ended or was disposed: nothing of it is forwarded any more.
    @inlinable final var isDone: Bool { subscription == nil }

    @inlinable final func setSubscription(_ subscription: any Disposable) {
        if isDone {
            subscription.dispose()
        } else {
            self.subscription = BoxedDisposable.classBound(subscription)
        }
    }

    /// Overridden only by a subject's entry, which a merge's source can be (``MergeMapSource``).
    @inlinable override func dispose() {
        let ending = subscription
        subscription = nil
        if let ending, ending !== self { ending.dispose() }
    }
}
