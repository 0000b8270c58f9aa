extension Observable {
    /// An observable that runs `subscribe` for each subscriber.
    ///
    /// The observer handed to `subscribe` enforces the grammar: after a terminal event, or
    /// after the subscription is disposed, everything sent to it is ignored. A terminal event
    /// disposes the disposable `subscribe` returned: a later terminal event disposes it
    /// *before* the observer receives the event (RxSwift disposes it after; kept on purpose,
    /// see <doc:PortingFromRxSwift>), one sent during `subscribe` as soon as it returns.
    @inlinable public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable) -> Observable<Element> {
        CreateObservable(subscribe)
    }

    /// Emits `element`, then completes.
    @inlinable public static func just(_ element: Element) -> Observable<Element> {
        JustObservable(element)
    }

    /// Completes at once without elements.
    @inlinable public static func empty() -> Observable<Element> {
        Observable.make { observer in
            observer.on(.completed)
            return NopDisposable()
        }
    }

    /// Never emits anything, never ends.
    @inlinable public static func never() -> Observable<Element> {
        Observable.make { _ in NopDisposable() }
    }

    /// Fails at once with `error`.
    @inlinable public static func error(_ error: any Error) -> Observable<Element> {
        Observable.make { observer in
            observer.on(.error(error))
            return NopDisposable()
        }
    }

    /// Emits the elements of `sequence` in order, then completes. Stops early when the
    /// subscription is disposed by an observer during emission.
    @inlinable public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        Observable.make { observer in
            let sink = CreateSink(observer)
            for element in sequence {
                if sink.isDisposed { break }
                sink.on(.next(element))
            }
            sink.on(.completed)
            return sink
        }
    }

    /// Emits `elements` in order, then completes.
    @inlinable public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// Calls `factory` for each subscriber and subscribes to the observable it returns; a
    /// throwing factory fails the subscription.
    @inlinable public static func deferred(_ factory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Observable.make { observer in
            do {
                return try factory().subscribe(erased: observer)
            } catch {
                observer.on(.error(error))
                return NopDisposable()
            }
        }
    }
}

/// Forwards events as they come, enforcing the grammar for a hand-written producer.
@usableFromInline final class CreateSink<Element>: Sink<Element> {
    @inlinable func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forward(element)
        case .error, .completed: forwardTerminal(event)
        }
    }
}

/// An ``Observable/create(_:)``: the producer (see `Observable` for why `run` is stored).
@usableFromInline final class CreateObservable<Element>: Observable<Element> {
    @usableFromInline let producer: (AnyObserver<Element>) -> any Disposable

    @inlinable init(_ producer: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.producer = producer
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let create = observable.asRunOwner(CreateObservable<Element>.self)
            let sink = CreateSink(observer)
            sink.setUpstream(create.producer(AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}

/// A ``Observable/just(_:)``: its element (see `Observable` for why `run` is stored).
@usableFromInline final class JustObservable<Element>: Observable<Element> {
    @usableFromInline let element: Element

    @inlinable init(_ element: Element) {
        self.element = element
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            observer.on(.next(observable.asRunOwner(JustObservable<Element>.self).element))
            observer.on(.completed)
            return NopDisposable()
        })
    }
}
