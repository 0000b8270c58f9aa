/// A resource that can be released: a subscription, a scheduled job, a running task.
///
/// `dispose()` is idempotent in every implementation here. After a subscription is disposed
/// its observer receives no further event.
public protocol Disposable {
    /// Releases the resource; calling it again does nothing.
    func dispose()

    /// This disposable as a class instance, or `nil` when it is a value type.
    ///
    /// An implementation hook, not for apps: ReactiveCore's subscriptions keep their upstream
    /// as a class-bound existential (two words) instead of an opaque one (five), which makes
    /// every operator's subscription object smaller. Every class conformer gets `self` and
    /// every value conformer `nil` from the default implementations below; do not implement
    /// it yourself.
    var _disposableObject: (any Disposable & AnyObject)? { get }
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// A value type is not a class instance: `nil`.
    @inlinable public var _disposableObject: (any Disposable & AnyObject)? { nil }

    /// Adds this disposable to `bag`, so it is disposed when the bag is.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

extension Disposable where Self: AnyObject {
    /// A class instance is itself.
    @inlinable public var _disposableObject: (any Disposable & AnyObject)? { self }
}
