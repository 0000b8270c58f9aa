/// A `scan` as `startWith` and `distinctUntilChanged()` see it when written right after it
/// (`changes.scan(start) { … }.startWith(start).distinctUntilChanged()`, as view models keep a
/// state): each returns a `scan` doing its work too, so a subscription makes one sink for the
/// three operators instead of a sink each (``ScanObservable``, ``ScanSink``).
///
/// Those operators do not know the scan's input type, so the scan stores, as it stores `run`,
/// the function that makes its fused copy: made where the types are known, it is specialized
/// (a method overridden in ``ScanObservable`` would run generic code, sink included).
///
/// A scan only its caller holds (the temporary of a chain written in one expression, which
/// `startWith` and `distinctUntilChanged()` take consuming) is not copied: it takes the
/// operator's work on itself (``fuseStart(_:alone:)``, ``fuseDistinct(_:alone:)``), since no
/// one else can see it change. A scan held elsewhere (a variable subscribed later) is copied,
/// so it keeps emitting what it did.
@usableFromInline class ScanFusing<State>: Observable<State> {
    /// Makes a copy of this scan with the comparison given and, when one is given, that start.
    @usableFromInline typealias Remake = (ScanFusing<State>, State?, ((State, State) -> Bool)?) -> Observable<State>

    /// What was fused, changed by one access per fusion (each access to a `var` here is a
    /// dynamic exclusivity check).
    @usableFromInline final var fused: ScanFused<State>
    /// The fused `startWith`'s element; the scan's seed when there is none (`fused.hasStart`).
    @usableFromInline final var start: State
    @usableFromInline final let remake: Remake

    // No stored `State?`: a generic class's deinit is not specialized, and destroying an
    // optional of a generic type looks its metadata up each time (~325 instructions). `start`
    // is a plain `State`, whose metadata is the class's own argument, and `ScanFused` holds
    // nothing whose layout depends on `State`.
    @inlinable init(
        hasStart: Bool, start: State, areEqual: ((State, State) -> Bool)?, remake: @escaping Remake, run: @escaping Run
    ) {
        fused = ScanFused(hasStart: hasStart, areEqual: areEqual)
        self.start = start
        self.remake = remake
        super.init(run: run, endsItsSubscription: true)
    }

    /// This scan, then `element` emitted first; nil when that cannot be fused: a start after a
    /// fused distinct would not pass through it, nor would a second start come before the first.
    /// `alone`: nothing but the caller holds this scan, which then changes itself.
    @inlinable final func fuseStart(_ element: State, alone: Bool) -> Observable<State>? {
        guard alone else {
            let now = fused
            guard !now.hasStart, now.areEqual == nil else { return nil }
            return remake(self, element, nil)
        }
        guard fused.takeStart() else { return nil }
        start = element
        return self
    }

    /// This scan without consecutive elements `areEqual` calls equal; nil when it has one.
    /// `alone` as for ``fuseStart(_:alone:)``.
    @inlinable final func fuseDistinct(_ areEqual: @escaping (State, State) -> Bool, alone: Bool) -> Observable<State>? {
        guard alone else {
            guard fused.areEqual == nil else { return nil }
            return remake(self, nil, areEqual)
        }
        guard fused.takeDistinct(areEqual) else { return nil }
        return self
    }
}

/// The `startWith` and `distinctUntilChanged()` a ``ScanFusing`` does the work of.
@usableFromInline struct ScanFused<State> {
    /// Whether a fused `startWith` emits an element (the scan's `start`) first.
    @usableFromInline var hasStart: Bool
    /// A fused `distinctUntilChanged()`'s comparison.
    @usableFromInline var areEqual: ((State, State) -> Bool)?

    @inlinable init(hasStart: Bool, areEqual: ((State, State) -> Bool)?) {
        self.hasStart = hasStart
        self.areEqual = areEqual
    }

    /// Whether a sink's first state compares with something other than `seed` (a scan sink's
    /// initial `firstDiffers` and `firstPending`, see ``ScanStepping``). Not a static member of
    /// that protocol: called from the sinks' initializers, it was not specialized there
    /// (~65 instructions per subscription, `.ci/instructions`, `create`).
    @inlinable func firstDiffers(start: State, seed: State) -> Bool {
        if let areEqual { !hasStart || !areEqual(start, seed) } else { false }
    }

    /// Records a fused start; false, changing nothing, when one cannot be fused (see
    /// `ScanFusing.fuseStart(_:alone:)`).
    @inlinable mutating func takeStart() -> Bool {
        guard !hasStart, areEqual == nil else { return false }
        hasStart = true
        return true
    }

    /// Records a fused distinct; false, changing nothing, when there is one already.
    @inlinable mutating func takeDistinct(_ areEqual: @escaping (State, State) -> Bool) -> Bool {
        guard self.areEqual == nil else { return false }
        self.areEqual = areEqual
        return true
    }
}
