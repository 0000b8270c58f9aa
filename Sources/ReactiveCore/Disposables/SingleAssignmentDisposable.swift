/// A disposable assigned once, possibly after it was already disposed (then the assigned
/// one is disposed at once). Useful when a subscription may end before `subscribe` returns.
public final class SingleAssignmentDisposable: DisposableBase, Cancelable {
    private var held: (any Disposable)?
    private var isAssigned = false
    public private(set) var isDisposed = false

    /// An unassigned holder.
    public override init() {}

    /// Assigns the disposable; only the first assignment is kept, later ones are disposed.
    public func setDisposable(_ disposable: any Disposable) {
        guard !isAssigned, !isDisposed else {
            disposable.dispose()
            return
        }
        isAssigned = true
        held = disposable
    }

    public override func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let disposing = held
        held = nil
        disposing?.dispose()
    }
}
