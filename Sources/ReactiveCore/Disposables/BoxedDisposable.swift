/// Holds a value-type disposable in a class instance, so a subscription can keep any
/// disposable in a ``DisposableBase`` field (see `Disposable._disposableObject` in
/// Disposable.swift): a value type, or a class of another module.
@usableFromInline final class BoxedDisposable: DisposableBase {
    @usableFromInline let wrapped: any Disposable

    @inlinable init(_ wrapped: any Disposable) {
        self.wrapped = wrapped
        super.init()
    }

    @inlinable override func dispose() { wrapped.dispose() }

    /// `disposable` itself when it is a ``DisposableBase``, else `disposable` boxed.
    @inlinable static func classBound(_ disposable: any Disposable) -> DisposableBase {
        disposable._disposableObject ?? BoxedDisposable(disposable)
    }
}
