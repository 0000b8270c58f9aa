/// The class every subscription ReactiveCore makes derives from, so that a subscription can
/// keep its upstream in one word (a class reference) instead of two (a class-bound
/// existential) or five (an opaque one).
///
/// Not for apps: it cannot be created or subclassed outside this module, and apps keep using
/// ``Disposable``. A disposable of any other kind (a value type, a class of another module)
/// is held in a box when a subscription keeps it (see BoxedDisposable.swift); every operator
/// and subject here hands back a subclass, so that costs nothing in practice.
public class DisposableBase: Disposable {
    @inlinable init() {}

    /// Releases the resource; each subclass implements it.
    public func dispose() {}

    /// This object itself: it needs no box.
    @inlinable public final var _disposableObject: DisposableBase? { self }
}
