/// An observable for outputs that hold state: it never errors, shares one subscription to
/// its source, replays the latest element to each new subscriber (`share(replay: 1)`), and
/// delivers on one scheduler.
///
/// "One scheduler" is, by default, the graph's own thread: the graph is single-threaded by
/// contract (see ``Observable``), so a driver delivers synchronously, as its source does.
/// Pass a scheduler to the `asDriver` conversions to deliver through it instead
/// (`observe(on:)` before the sharing).
///
/// Build one with ``ObservableConvertibleType/asDriver(onErrorJustReturn:scheduler:)`` (or the
/// other `asDriver` forms) or from a ``BehaviorRelay``; consume it with `drive`.
public struct Driver<Element>: ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Wraps a source that already never errors; applies the sharing.
    @inlinable init(errorFree source: Observable<Element>, scheduler: (any Scheduler)?) {
        let delivered = scheduler.map { source.observe(on: $0) } ?? source
        self.source = delivered.share(replay: 1, scope: .whileConnected)
    }

    @inlinable init(shared: Observable<Element>) {
        self.source = shared
    }

    @inlinable public func asObservable() -> Observable<Element> { source }

    /// A driver of one element.
    @inlinable public static func just(_ element: Element) -> Driver<Element> {
        Driver(errorFree: .just(element), scheduler: nil)
    }

    /// A driver that completes at once.
    @inlinable public static func empty() -> Driver<Element> {
        Driver(errorFree: .empty(), scheduler: nil)
    }

    /// A driver that never emits.
    @inlinable public static func never() -> Driver<Element> {
        Driver(errorFree: .never(), scheduler: nil)
    }

    /// Subscribes closures (there is no error to handle).
    @inlinable public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Forwards elements and completion to `observers`.
    @inlinable public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable where Observer.Element == Element {
        source.subscribe(AnyObserver(eventHandler: { event in
            for observer in observers { observer.on(event) }
        }))
    }

    /// Forwards elements to `relays`.
    @inlinable public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Forwards elements to `relays`.
    @inlinable public func drive(_ relays: PublishRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Applies an error-free transformation to the underlying observable, sharing the result.
    @inlinable func lift<Result>(_ transform: (Observable<Element>) -> Observable<Result>) -> Driver<Result> {
        Driver<Result>(shared: transform(source).share(replay: 1, scope: .whileConnected))
    }

    /// Transforms each element.
    @inlinable public func map<Result>(_ transform: @escaping (Element) -> Result) -> Driver<Result> {
        lift { $0.map(transform) }
    }

    /// Transforms each element, dropping `nil` results.
    @inlinable public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Driver<Result> {
        lift { $0.compactMap(transform) }
    }

    /// Keeps the elements `isIncluded` accepts.
    @inlinable public func filter(_ isIncluded: @escaping (Element) -> Bool) -> Driver<Element> {
        lift { $0.filter(isIncluded) }
    }

    /// Drops elements `areEqual` to the previous one.
    @inlinable public func distinctUntilChanged(_ areEqual: @escaping (Element, Element) -> Bool) -> Driver<Element> {
        lift { $0.distinctUntilChanged(areEqual) }
    }

    /// Emits `elements` first.
    @inlinable public func startWith(_ elements: Element...) -> Driver<Element> {
        lift { source in elements.reversed().reduce(source) { $0.startWith($1) } }
    }

    /// Forwards the latest inner driver's elements.
    @inlinable public func flatMapLatest<Result>(_ selector: @escaping (Element) -> Driver<Result>) -> Driver<Result> {
        lift { $0.flatMapLatest { selector($0).asObservable() } }
    }

    /// Running accumulation.
    @inlinable public func scan<State>(_ seed: State, accumulator: @escaping (State, Element) -> State) -> Driver<State> {
        lift { $0.scan(seed, accumulator: accumulator) }
    }
}

extension Driver where Element: Equatable {
    /// Drops elements equal to the previous one.
    @inlinable public func distinctUntilChanged() -> Driver<Element> {
        distinctUntilChanged(==)
    }
}

extension ObservableConvertibleType {
    /// A driver of this sequence that, on error, emits `element` and completes.
    @inlinable public func asDriver(onErrorJustReturn element: Element, scheduler: (any Scheduler)? = nil) -> Driver<Element> {
        Driver(errorFree: asObservable().catchAndReturn(element), scheduler: scheduler)
    }

    /// A driver of this sequence that, on error, continues with `fallback`.
    @inlinable public func asDriver(onErrorDriveWith fallback: Driver<Element>, scheduler: (any Scheduler)? = nil) -> Driver<Element> {
        Driver(errorFree: asObservable().catch { _ in fallback.asObservable() }, scheduler: scheduler)
    }

    /// A driver of this sequence that, on error, continues with the driver `recover` returns.
    @inlinable public func asDriver(onErrorRecover recover: @escaping (any Error) -> Driver<Element>, scheduler: (any Scheduler)? = nil) -> Driver<Element> {
        Driver(errorFree: asObservable().catch { recover($0).asObservable() }, scheduler: scheduler)
    }
}

extension BehaviorRelay {
    /// This relay as a driver (relays never error): replays the current value.
    @inlinable public func asDriver() -> Driver<Element> {
        Driver(errorFree: asObservable(), scheduler: nil)
    }
}
