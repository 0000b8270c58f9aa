/// Holds a value-type disposable in a class instance, so a subscription can keep any
/// disposable in a class-bound field (see `Disposable._disposableObject` in Disposable.swift).
@usableFromInline final class BoxedDisposable: Disposable {
    @usableFromInline let wrapped: any Disposable

    @inlinable init(_ wrapped: any Disposable) {
        self.wrapped = wrapped
    }

    @inlinable func dispose() { wrapped.dispose() }

    /// `disposable` itself when it is a class instance, else `disposable` boxed.
    @inlinable static func classBound(_ disposable: any Disposable) -> any Disposable & AnyObject {
        disposable._disposableObject ?? BoxedDisposable(disposable)
    }
}
