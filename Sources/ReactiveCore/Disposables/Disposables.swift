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
    @inlinable var _disposableObject: (any Disposable & AnyObject)? { NopObject.shared }
}

/// The class instance that stands for every `NopDisposable` in a class-bound field.
@usableFromInline final class NopObject: Disposable, Sendable {
    @usableFromInline static let shared = NopObject()

    @inlinable init() {}
    @inlinable func dispose() {}
}

/// Runs a closure once when first disposed, then forgets it.
final class AnonymousDisposable: Cancelable {
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    var isDisposed: Bool { action == nil }

    func dispose() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

/// A disposable that only records that it was disposed.
public final class BooleanDisposable: Cancelable {
    public private(set) var isDisposed = false

    /// A disposable not yet disposed.
    public init() {}

    public func dispose() { isDisposed = true }
}
