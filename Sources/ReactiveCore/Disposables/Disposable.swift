/// A resource that can be released: a subscription, a scheduled job, a running task.
///
/// `dispose()` is idempotent in every implementation here. After a subscription is disposed
/// its observer receives no further event.
public protocol Disposable {
    /// Releases the resource; calling it again does nothing.
    func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Adds this disposable to `bag`, so it is disposed when the bag is.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
