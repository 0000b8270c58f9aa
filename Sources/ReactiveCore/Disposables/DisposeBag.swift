/// Owns subscriptions for the lifetime of an object: everything inserted is disposed when
/// the bag is deinitialized (or when ``dispose()`` is called).
///
/// A view model keeps one bag for its own lifetime; nothing else should need one.
public final class DisposeBag {
    private var disposables: [any Disposable] = []
    private var isDisposed = false

    /// An empty bag.
    public init() {}

    /// Adds `disposable`; if the bag was already disposed, disposes it at once.
    public func insert(_ disposable: any Disposable) {
        if isDisposed {
            disposable.dispose()
        } else {
            disposables.append(disposable)
        }
    }

    /// Disposes everything inserted so far, in insertion order; later insertions are
    /// disposed at once.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let disposing = disposables
        disposables = []
        for disposable in disposing { disposable.dispose() }
    }

    deinit {
        for disposable in disposables { disposable.dispose() }
    }
}
