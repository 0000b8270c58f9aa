/// Holds one disposable at a time: setting a new one disposes the previous one.
///
/// Once disposed, anything assigned is disposed at once.
public final class SerialDisposable: DisposableBase, Cancelable {
    private var current: (any Disposable)?
    public private(set) var isDisposed = false

    /// An empty holder.
    public override init() {}

    /// The disposable currently held; assigning disposes the previous one.
    public var disposable: any Disposable {
        get { current ?? NopDisposable() }
        set {
            if isDisposed {
                newValue.dispose()
                return
            }
            let previous = current
            current = newValue
            previous?.dispose()
        }
    }

    public override func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let held = current
        current = nil
        held?.dispose()
    }
}
