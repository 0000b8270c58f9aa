/// What a ``Single`` ends with: its one element, or an error.
public typealias SingleEvent<Element> = Result<Element, any Error>

/// A one-shot observable: exactly one element (then completion), or an error. A request, a
/// load, a save: anything that answers once.
///
/// Build one with ``create(subscribe:)``, ``just(_:)``, ``error(_:)`` or
/// ``ObservableType/asSingle()``; consume it with ``subscribe(onSuccess:onFailure:onDisposed:)``
/// or chain it as an observable (``asObservable()``). Like RxSwift's, it is cold and not
/// shared: each subscription runs it again.
public struct Single<Element>: ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Wraps an observable that already emits one element and completes, or fails.
    @inlinable init(oneShot source: Observable<Element>) {
        self.source = source
    }

    @inlinable public func asObservable() -> Observable<Element> { source }

    /// A single that runs `subscribe` for each subscriber; the closure it is given takes the
    /// one result (anything after the first is ignored). The disposable returned is disposed
    /// once the result was delivered, or when the subscription is disposed first.
    @inlinable public static func create(
        subscribe: @escaping (@escaping (SingleEvent<Element>) -> Void) -> any Disposable
    ) -> Single<Element> {
        Single(oneShot: Observable.create { observer in
            subscribe { result in
                switch result {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        })
    }

    /// A single of `element`.
    @inlinable public static func just(_ element: Element) -> Single<Element> {
        Single(oneShot: .just(element))
    }

    /// A single failing with `error`.
    @inlinable public static func error(_ error: any Error) -> Single<Element> {
        Single(oneShot: .error(error))
    }

    /// A single that never answers.
    @inlinable public static func never() -> Single<Element> {
        Single(oneShot: .never())
    }

    /// Calls `factory` for each subscriber and runs the single it returns; a throwing factory
    /// fails the subscription.
    @inlinable public static func deferred(_ factory: @escaping () throws -> Single<Element>) -> Single<Element> {
        Single(oneShot: .deferred { try factory().asObservable() })
    }

    /// Subscribes closures for the result.
    @inlinable public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((any Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
    }

    /// Subscribes a closure receiving the result.
    @inlinable public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> any Disposable {
        source.subscribe(onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
    }

    /// Transforms the element; a throwing transform fails the single.
    @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single<Result>(oneShot: source.map(transform))
    }

    /// Continues with the single `selector` returns for the element.
    @inlinable public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single<Result>(oneShot: source.flatMap { try selector($0).asObservable() })
    }

    /// On error, continues with the single `handler` returns for it.
    @inlinable public func `catch`(_ handler: @escaping (any Error) throws -> Single<Element>) -> Single<Element> {
        Single(oneShot: source.catch { try handler($0).asObservable() })
    }

    /// On error, succeeds with `element` instead.
    @inlinable public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(oneShot: source.catchAndReturn(element))
    }

    /// Runs side effects on the result (see ``ObservableType/do(onNext:onError:onCompleted:onSubscribe:onSubscribed:onDispose:)``).
    @inlinable public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(oneShot: source.do(
            onNext: onSuccess, onError: onError, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// On error, runs the single again, up to `maxAttemptCount` runs in all.
    @inlinable public func retry(_ maxAttemptCount: Int) -> Single<Element> {
        Single(oneShot: source.retry(maxAttemptCount))
    }

    /// Fails with ``TimeoutError`` when no result arrived within `dueTime`.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> Single<Element> {
        Single(oneShot: source.timeout(dueTime, scheduler: scheduler))
    }
}

extension ObservableType {
    /// This sequence as a ``Single``: its one element once it completes. Fails with
    /// ``SingleError/moreThanOneElement`` at a second element, with ``SingleError/noElements``
    /// when it completes empty, and with its own error.
    @inlinable public func asSingle() -> Single<Element> {
        let source = asObservable()
        return Single(oneShot: Observable.make { observer in
            let sink = AsSingleSink(observer)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        })
    }
}

/// Keeps the one element until the source completes.
@usableFromInline final class AsSingleSink<Element>: Sink<Element> {
    @usableFromInline var element: Element?

    @inlinable func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        switch event {
        case .next(let value):
            guard element == nil else { return forwardError(SingleError.moreThanOneElement) }
            element = value
        case .error(let error):
            forwardError(error)
        case .completed:
            guard let value = element else { return forwardError(SingleError.noElements) }
            element = nil
            forward(value)
            forwardCompleted()
        }
    }
}
