/// What a merge holds of one source, without its element type: the subscription and whether
/// the source ended. ``MergeSource`` adds the observer.
///
/// Not generic so that disposing a merge, which runs unspecialized (see `MergeSink`), needs
/// no type metadata looked up. Exclusivity unchecked, as on `MergeSink`: the subscription is
/// moved into a local before it is disposed.
///
/// One field says both (`subscription`, a ``MergeSubscription/SourceState``): the source is
/// subscribing (its subscription not arrived yet), subscribed (holding it), or ended
/// (`isDone`). One word, as a `DisposableBase?` would be, so a `MergeSource` and a
/// ``MergeMapSource`` each fit a smaller malloc chunk than with a separate flag; and the
/// state "subscribing" is a tag, not a reference: a source attached to a subject as its own
/// entry (`MergeSink.add(_:attachedTo:)`) stays in it for its whole life, and a reference to
/// itself there (the placeholder this was) cost a retain per source on `create` and a release
/// per source on `destroy` (`.ci/instructions`; ViewModelDaemon.docc/Performance.md).
@usableFromInline class MergeSubscription: DisposableBase {
    /// The states of a source's subscription (see ``MergeSubscription``).
    @usableFromInline enum SourceState {
        /// Running; its subscription has not arrived (or, for a subject's own entry, is the
        /// entry itself, never disposed through this).
        case subscribing
        /// Running, holding its subscription.
        case subscribed(DisposableBase)
        /// Ended or disposed: nothing of it is forwarded any more.
        case ended
    }

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var subscription: SourceState
    /// The source its merge linked before it (see `MergeSink`), until the merge is disposed.
    /// A ``Next``, not an optional: for a field of its own class's optional type the compiler
    /// writes a `deinit` that walks it as a list (a retain, a release and a uniqueness test,
    /// even when it is empty, as it always is by then: `MergeSink.dispose` takes every link);
    /// this is destroyed with one release (of nothing).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var next: Next

    /// A link of the merge's list of sources.
    @usableFromInline enum Next {
        /// The source linked first: none before it.
        case end
        /// The source linked before.
        case source(MergeSubscription)

        /// Moves the link out, leaving the end.
        @inlinable mutating func take() -> Next {
            let taken = self
            self = .end
            return taken
        }
    }

    @inlinable override init() {
        subscription = .subscribing
        next = .end
        super.init()
    }

    /// For a subject's entry that is not a merge's source (`ObserverHub.Entry`): it is never
    /// a merge's running source, so it starts `ended`.
    @inlinable init(outsideMerge: Void) {
        subscription = .ended
        next = .end
        super.init()
    }

    /// Whether the source ended or was disposed: nothing of it is forwarded any more.
    @inlinable final var isDone: Bool {
        if case .ended = subscription { return true }
        return false
    }

    @inlinable final func setSubscription(_ subscription: any Disposable) {
        if isDone {
            subscription.dispose()
        } else {
            self.subscription = .subscribed(BoxedDisposable.classBound(subscription))
        }
    }

    /// Overridden only by a subject's entry, which a merge's source can be (``MergeMapSource``).
    /// A subject's entry subscribed through the subject holds itself as its subscription: it
    /// is not disposed through it.
    @inlinable override func dispose() {
        let ending = subscription
        subscription = .ended
        if case .subscribed(let held) = ending, held !== self { held.dispose() }
    }
}
