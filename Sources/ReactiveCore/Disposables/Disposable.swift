/// A resource that can be released: a subscription, a scheduled job, a running task.
///
/// `dispose()` is idempotent in every implementation here. After a subscription is disposed
/// its observer receives no further event.
public protocol Disposable {
    /// Releases the resource; calling it again does nothing.
    func dispose()

    /// This disposable as a ``DisposableBase``, or `nil` when it is not one.
    ///
    /// An implementation hook, not for apps: ReactiveCore's subscriptions keep their upstream
    /// as a class reference (one word) instead of an opaque existential (five), which makes
    /// every operator's subscription object smaller. ``DisposableBase`` answers `self`, every
    /// other conformer `nil` (it is then boxed) from the default implementation below; do not
    /// implement it yourself.
    var _disposableObject: DisposableBase? { get }
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Not a ``DisposableBase``: `nil`.
    @inlinable public var _disposableObject: DisposableBase? { nil }

    /// Adds this disposable to `bag`, so it is disposed when the bag is.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
