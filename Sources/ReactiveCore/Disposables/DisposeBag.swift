/// Owns subscriptions for the lifetime of an object: everything inserted is disposed when
/// the bag is deinitialized (or when ``dispose()`` is called).
///
/// A view model keeps one bag for its own lifetime; nothing else should need one.
public final class DisposeBag {
    // Unchecked exclusivity (dynamic checks were a few per view model created and destroyed):
    // every access is instantaneous. `insert` reads the flag, then either appends (which runs
    // no other code) or disposes its argument without touching the bag; `dispose` and
    // `deinit` move the array into a local before disposing anything, so a disposable that
    // inserts into or disposes this bag while being disposed overlaps no access.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var disposables: [any Disposable] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
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
        let disposing = disposables
        for disposable in disposing { disposable.dispose() }
    }
}
