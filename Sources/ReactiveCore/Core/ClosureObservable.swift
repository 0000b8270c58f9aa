/// An observable whose subscription runs a closure: ``Observable/create(_:)`` and the
/// operators too rare to have their own class.
@usableFromInline final class ClosureObservable<Element>: Observable<Element> {
    @usableFromInline let handler: (AnyObserver<Element>) -> any Disposable

    @inlinable init(_ handler: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.handler = handler
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function (see `Observable`).
            observable.asRunOwner(ClosureObservable<Element>.self).handler(observer)
        })
    }
}
