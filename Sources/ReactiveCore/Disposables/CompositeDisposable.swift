/// A group of disposables disposed together, in insertion order.
///
/// Once the group is disposed, anything inserted later is disposed at once.
public final class CompositeDisposable: DisposableBase, Cancelable {
    /// Identifies one inserted disposable, to remove it again.
    public struct Key: Hashable, Sendable {
        let rawValue: Int
    }

    private var entries: [(key: Key, disposable: any Disposable)] = []
    private var nextKey = 0
    public private(set) var isDisposed = false

    /// An empty group.
    public override init() {}

    /// A group holding `first` and `second`.
    public init(_ first: any Disposable, _ second: any Disposable) {
        super.init()
        _ = insert(first)
        _ = insert(second)
    }

    /// A group holding `disposables`.
    public init(disposables: [any Disposable]) {
        super.init()
        for disposable in disposables { _ = insert(disposable) }
    }

    /// The number of disposables currently held.
    public var count: Int { entries.count }

    /// Adds `disposable`; returns its key, or `nil` (after disposing it) when the group was
    /// already disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> Key? {
        if isDisposed {
            disposable.dispose()
            return nil
        }
        let key = Key(rawValue: nextKey)
        nextKey += 1
        entries.append((key, disposable))
        return key
    }

    /// Removes the disposable inserted under `key` and disposes it.
    public func remove(for key: Key) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        let removed = entries.remove(at: index)
        removed.disposable.dispose()
    }

    public override func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let disposing = entries
        entries = []
        for entry in disposing { entry.disposable.dispose() }
    }
}
