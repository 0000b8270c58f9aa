/// Owns subscriptions for the lifetime of an object: everything inserted is disposed when
/// the bag is deinitialized (or when ``dispose()`` is called).
///
/// A view model keeps one bag for its own lifetime; nothing else should need one.
public final class DisposeBag {
    /// What the bag holds. Many bags (one per view-model instance) only ever get one
    /// subscription: held as it is, it needs no array (an allocation per instance created,
    /// and its release when destroyed; `.ci/instructions`, `create` and `destroy`).
    private enum Held {
        case none
        case one(any Disposable)
        case many([any Disposable])
    }

    // Unchecked exclusivity (dynamic checks were a few per view model created and destroyed):
    // every access is instantaneous. `insert` reads the flag, then either stores (which runs
    // no other code) or disposes its argument without touching the bag; `dispose` and
    // `deinit` move the held disposables into a local before disposing anything, so a
    // disposable that inserts into or disposes this bag while being disposed overlaps no access.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var disposables: Held = .none
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
            return
        }
        // Moved out of the bag (`swap`, no copy) and switched on as it is, not copied for the
        // switch and destroyed after; an array so taken is not shared while it grows.
        var held = Held.none
        swap(&held, &disposables)
        switch consume held {
        case .none:
            disposables = .one(disposable)
        case .one(let first):
            disposables = .many([first, disposable])
        case .many(var all):
            all.append(disposable)
            disposables = .many(all)
        }
    }

    /// Disposes everything inserted so far, in insertion order; later insertions are
    /// disposed at once.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let disposing = disposables
        disposables = .none
        Self.dispose(consume disposing)
    }

    deinit {
        // A disposed bag holds nothing (`dispose()` emptied it, later insertions were disposed
        // at once): an instance's bag, disposed when the instance is closed, skips the move.
        if isDisposed { return }
        // Moved out (`swap`), not copied: the copy's retains and the stored value's destroy
        // after `deinit` (through the existential's witnesses) both go.
        var held = Held.none
        swap(&held, &disposables)
        Self.dispose(consume held)
    }

    /// Disposes `held`, in insertion order. Consumed (and `dispose()` hands it over with
    /// `consume`), so that the switch takes the disposables out of it instead of copying the
    /// held value through its value witnesses and destroying both copies after.
    private static func dispose(_ held: consuming Held) {
        switch consume held {
        case .none:
            break
        case .one(let disposable):
            disposable.dispose()
        case .many(let all):
            for disposable in all { disposable.dispose() }
        }
    }
}
