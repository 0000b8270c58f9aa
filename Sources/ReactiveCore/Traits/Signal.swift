/// An observable for event outputs: like ``Driver`` (never errors, one shared subscription,
/// delivers on one scheduler) but with **no replay**: a subscriber receives only what is
/// emitted after it subscribed.
public struct Signal<Element>: ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Wraps a source that already never errors; applies the sharing.
    @inlinable init(errorFree source: Observable<Element>, scheduler: (any Scheduler)?) {
        let delivered = scheduler.map { source.observe(on: $0) } ?? source
        self.source = delivered.share(replay: 0, scope: .whileConnected)
    }

    @inlinable init(shared: Observable<Element>) {
        self.source = shared
    }

    @inlinable public func asObservable() -> Observable<Element> { source }

    /// A signal that completes at once.
    @inlinable public static func empty() -> Signal<Element> {
        Signal(errorFree: .empty(), scheduler: nil)
    }

    /// A signal that never emits.
    @inlinable public static func never() -> Signal<Element> {
        Signal(errorFree: .never(), scheduler: nil)
    }

    /// Subscribes closures (there is no error to handle).
    @inlinable public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Forwards elements to `relays`.
    @inlinable public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Forwards elements and completion to `observers`.
    @inlinable public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable where Observer.Element == Element {
        source.subscribe(AnyObserver(eventHandler: { event in
            for observer in observers { observer.on(event) }
        }))
    }

    @inlinable func lift<Result>(_ transform: (Observable<Element>) -> Observable<Result>) -> Signal<Result> {
        Signal<Result>(shared: transform(source).share(replay: 0, scope: .whileConnected))
    }

    /// Transforms each element.
    @inlinable public func map<Result>(_ transform: @escaping (Element) -> Result) -> Signal<Result> {
        lift { $0.map(transform) }
    }

    /// Transforms each element, dropping `nil` results.
    @inlinable public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Signal<Result> {
        lift { $0.compactMap(transform) }
    }

    /// Keeps the elements `isIncluded` accepts.
    @inlinable public func filter(_ isIncluded: @escaping (Element) -> Bool) -> Signal<Element> {
        lift { $0.filter(isIncluded) }
    }
}

extension ObservableConvertibleType {
    /// A signal of this sequence that, on error, emits `element` and completes.
    @inlinable public func asSignal(onErrorJustReturn element: Element, scheduler: (any Scheduler)? = nil) -> Signal<Element> {
        Signal(errorFree: asObservable().catchAndReturn(element), scheduler: scheduler)
    }

    /// A signal of this sequence that, on error, continues with `fallback`.
    @inlinable public func asSignal(onErrorSignalWith fallback: Signal<Element>, scheduler: (any Scheduler)? = nil) -> Signal<Element> {
        Signal(errorFree: asObservable().catch { _ in fallback.asObservable() }, scheduler: scheduler)
    }
}

extension PublishRelay {
    /// This relay as a signal (relays never error).
    @inlinable public func asSignal() -> Signal<Element> {
        Signal(errorFree: asObservable(), scheduler: nil)
    }
}
