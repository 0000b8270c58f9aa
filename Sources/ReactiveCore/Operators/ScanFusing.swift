/// A `scan` as `startWith` and `distinctUntilChanged()` see it when written right after it
/// (`changes.scan(start) { … }.startWith(start).distinctUntilChanged()`, as view models keep a
/// state): each returns a `scan` doing its work too, so a subscription makes one sink for the
/// three operators instead of a sink each (``ScanObservable``, ``ScanSink``).
///
/// Those operators do not know the scan's input type, so the scan stores, as it stores `run`,
/// the function that makes its fused copy: made where the types are known, it is specialized
/// (a method overridden in ``ScanObservable`` would run generic code, sink included).
@usableFromInline class ScanFusing<State>: Observable<State> {
    /// Makes a copy of this scan with the comparison given and, when one is given, that start.
    @usableFromInline typealias Remake = (ScanFusing<State>, State?, ((State, State) -> Bool)?) -> Observable<State>

    /// Whether a fused `startWith` emits an element (the scan's `start`) first.
    @usableFromInline final let hasStart: Bool
    /// A fused `distinctUntilChanged()`'s comparison.
    @usableFromInline final let areEqual: ((State, State) -> Bool)?
    @usableFromInline final let remake: Remake

    // No stored `State?`: a generic class's deinit is not specialized, and destroying an
    // optional of a generic type looks its metadata up each time (~325 instructions).
    @inlinable init(hasStart: Bool, areEqual: ((State, State) -> Bool)?, remake: @escaping Remake, run: @escaping Run) {
        self.hasStart = hasStart
        self.areEqual = areEqual
        self.remake = remake
        super.init(run: run, endsItsSubscription: true)
    }

    /// This scan, then `element` emitted first; nil when that cannot be fused: a start after a
    /// fused distinct would not pass through it, nor would a second start come before the first.
    @inlinable final func startingWith(_ element: State) -> Observable<State>? {
        guard !hasStart, areEqual == nil else { return nil }
        return remake(self, element, nil)
    }

    /// This scan without consecutive elements `areEqual` calls equal; nil when it has one.
    @inlinable final func distinct(by areEqual: @escaping (State, State) -> Bool) -> Observable<State>? {
        guard self.areEqual == nil else { return nil }
        return remake(self, nil, areEqual)
    }
}
