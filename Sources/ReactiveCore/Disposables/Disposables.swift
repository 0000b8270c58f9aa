/// Factories for the common disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> any Disposable { NopDisposable() }

    /// A disposable that runs `dispose` once, the first time it is disposed.
    public static func create(with dispose: @escaping () -> Void) -> any Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both, in order.
    public static func create(_ first: any Disposable, _ second: any Disposable) -> any Cancelable {
        CompositeDisposable(first, second)
    }

    /// A disposable that disposes all of `disposables`, in order.
    public static func create(_ disposables: [any Disposable]) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

/// Does nothing when disposed.
@usableFromInline
struct NopDisposable: Disposable {
    @inlinable init() {}
    @inlinable func dispose() {}

    /// One shared instance stands for every `NopDisposable`, so storing one allocates nothing.
    @inlinable var _disposableObject: DisposableBase? { NopObject.shared }
}

/// The object that stands for every `NopDisposable` in a ``DisposableBase`` field.
@usableFromInline final class NopObject: DisposableBase {
    /// `nonisolated(unsafe)` because a `DisposableBase` subclass cannot be `Sendable` (it
    /// inherits from a class). Safe to share across threads: it has no stored property and
    /// its `dispose` does nothing, so the only shared state is its reference count, which is
    /// atomic.
    @usableFromInline nonisolated(unsafe) static let shared = NopObject()

    @inlinable override init() {}
    @inlinable override func dispose() {}
}

/// Runs a closure once when first disposed, then forgets it.
final class AnonymousDisposable: DisposableBase, Cancelable {
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) {
        self.action = action
        super.init()
    }

    var isDisposed: Bool { action == nil }

    override func dispose() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

/// A disposable that only records that it was disposed.
public final class BooleanDisposable: DisposableBase, Cancelable {
    public private(set) var isDisposed = false

    /// A disposable not yet disposed.
    public override init() {}

    public override func dispose() { isDisposed = true }
}
