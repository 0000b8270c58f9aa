/// Driver operators that combine drivers, or wait on a scheduler. Each result is shared with
/// a replay of one, like every driver; none can fail (the selectors do not throw).
extension Driver {
    /// A driver of `resultSelector` of the latest elements of both drivers, once each has
    /// emitted, whenever either emits.
    @inlinable public static func combineLatest<A, B>(
        _ a: Driver<A>, _ b: Driver<B>, resultSelector: @escaping (A, B) -> Element
    ) -> Driver<Element> {
        Driver(shared: Observable.combineLatest(a, b, resultSelector: resultSelector).share(replay: 1, scope: .whileConnected))
    }

    /// A driver of pairs of the latest elements of both drivers.
    @inlinable public static func combineLatest<A, B>(_ a: Driver<A>, _ b: Driver<B>) -> Driver<(A, B)> where Element == (A, B) {
        combineLatest(a, b) { ($0, $1) }
    }

    /// A driver of the arrays of the latest elements of `drivers` (no drivers: `[]`, then it
    /// completes; see ``Observable/combineLatest(_:)``).
    @inlinable public static func combineLatest<Source>(_ drivers: [Driver<Source>]) -> Driver<Element> where Element == [Source] {
        Driver(shared: Observable.combineLatest(drivers).share(replay: 1, scope: .whileConnected))
    }

    /// A driver of the elements of all `drivers`, as they come.
    @inlinable public static func merge(_ drivers: Driver<Element>...) -> Driver<Element> {
        merge(drivers)
    }

    /// A driver of the elements of all `drivers`, as they come.
    @inlinable public static func merge(_ drivers: [Driver<Element>]) -> Driver<Element> {
        Driver(shared: Observable.merge(drivers.map { $0.asObservable() }).share(replay: 1, scope: .whileConnected))
    }

    /// On each element, `resultSelector` of it and the latest element of `second`; elements
    /// arriving before `second` emitted are dropped.
    @inlinable public func withLatestFrom<Second, Result>(
        _ second: Driver<Second>, resultSelector: @escaping (Element, Second) -> Result
    ) -> Driver<Result> {
        lift { $0.withLatestFrom(second, resultSelector: resultSelector) }
    }

    /// On each element, the latest element of `second`.
    @inlinable public func withLatestFrom<Second>(_ second: Driver<Second>) -> Driver<Second> {
        withLatestFrom(second) { $1 }
    }

    /// An element once `dueTime` passed on `scheduler` without a newer one (see
    /// ``ObservableType/debounce(_:scheduler:)``).
    @inlinable public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Driver<Element> {
        lift { $0.debounce(dueTime, scheduler: scheduler) }
    }
}
