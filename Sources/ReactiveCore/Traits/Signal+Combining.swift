/// Signal operators that combine signals (or a signal with a driver's state), or wait on a
/// scheduler. Each result is shared without replay, like every signal; none can fail (the
/// selectors do not throw).
extension Signal {
    /// A signal of `resultSelector` of the latest elements of both signals, once each has
    /// emitted, whenever either emits.
    @inlinable public static func combineLatest<A, B>(
        _ a: Signal<A>, _ b: Signal<B>, resultSelector: @escaping (A, B) -> Element
    ) -> Signal<Element> {
        Signal(shared: Observable.combineLatest(a, b, resultSelector: resultSelector).share(replay: 0, scope: .whileConnected))
    }

    /// A signal of pairs of the latest elements of both signals.
    @inlinable public static func combineLatest<A, B>(_ a: Signal<A>, _ b: Signal<B>) -> Signal<(A, B)> where Element == (A, B) {
        combineLatest(a, b) { ($0, $1) }
    }

    /// A signal of the arrays of the latest elements of `signals` (no signals: `[]`, then it
    /// completes; see ``Observable/combineLatest(_:)``).
    @inlinable public static func combineLatest<Source>(_ signals: [Signal<Source>]) -> Signal<Element> where Element == [Source] {
        Signal(shared: Observable.combineLatest(signals).share(replay: 0, scope: .whileConnected))
    }

    /// A signal of the elements of all `signals`, as they come.
    @inlinable public static func merge(_ signals: Signal<Element>...) -> Signal<Element> {
        merge(signals)
    }

    /// A signal of the elements of all `signals`, as they come.
    @inlinable public static func merge(_ signals: [Signal<Element>]) -> Signal<Element> {
        Signal(shared: Observable.merge(signals.map { $0.asObservable() }).share(replay: 0, scope: .whileConnected))
    }

    /// On each element, `resultSelector` of it and the latest element of `state` (a submit
    /// tap reading the form): elements arriving before `state` emitted are dropped.
    @inlinable public func withLatestFrom<Second, Result>(
        _ state: Driver<Second>, resultSelector: @escaping (Element, Second) -> Result
    ) -> Signal<Result> {
        lift { $0.withLatestFrom(state, resultSelector: resultSelector) }
    }

    /// On each element, the latest element of `state`.
    @inlinable public func withLatestFrom<Second>(_ state: Driver<Second>) -> Signal<Second> {
        withLatestFrom(state) { $1 }
    }

    /// On each element, `resultSelector` of it and the latest element of `second`.
    @inlinable public func withLatestFrom<Second, Result>(
        _ second: Signal<Second>, resultSelector: @escaping (Element, Second) -> Result
    ) -> Signal<Result> {
        lift { $0.withLatestFrom(second, resultSelector: resultSelector) }
    }

    /// On each element, the latest element of `second`.
    @inlinable public func withLatestFrom<Second>(_ second: Signal<Second>) -> Signal<Second> {
        withLatestFrom(second) { $1 }
    }

    /// An element once `dueTime` passed on `scheduler` without a newer one (see
    /// ``ObservableType/debounce(_:scheduler:)``).
    @inlinable public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Signal<Element> {
        lift { $0.debounce(dueTime, scheduler: scheduler) }
    }
}
