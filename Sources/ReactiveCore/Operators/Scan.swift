extension ObservableType {
    /// Emits the running accumulation: `accumulator(seed, e1)`, then that with `e2`, and so on.
    /// Each subscription starts again from `seed`.
    @inlinable public func scan<State>(_ seed: State, accumulator: @escaping (State, Element) throws -> State) -> Observable<State> {
        ScanObservable(source: asObservable(), seed: seed, accumulator: .returning(accumulator))
    }

    /// Emits the running accumulation, mutating the state in place.
    @inlinable public func scan<State>(into seed: State, accumulator: @escaping (inout State, Element) throws -> Void) -> Observable<State> {
        ScanObservable(source: asObservable(), seed: seed, accumulator: .inPlace(accumulator))
    }
}

/// A `scan`: its source, seed and accumulator (see `Observable` for why `run` is stored), and
/// what a `startWith` or `distinctUntilChanged()` written right after it added (see
/// ``ScanFusing``): one ``ScanSink`` then does the three operators' work for each subscription
/// (over a merge, one ``MergeScanSink`` does the merge's too).
@usableFromInline final class ScanObservable<Input, State>: ScanFusing<State> {
    @usableFromInline let source: Observable<Input>
    @usableFromInline let seed: State
    @usableFromInline let accumulator: ScanAccumulator<Input, State>

    @inlinable init(
        source: Observable<Input>, seed: State, accumulator: ScanAccumulator<Input, State>, start: State? = nil,
        areEqual: ((State, State) -> Bool)? = nil
    ) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        super.init(hasStart: start != nil, start: start ?? seed, areEqual: areEqual, remake: { fusing, start, areEqual in
            // Always this class: only this initializer stores this function.
            let scan = fusing.asRunOwner(ScanObservable<Input, State>.self)
            return ScanObservable(
                source: scan.source, seed: scan.seed, accumulator: scan.accumulator,
                start: start ?? (scan.fused.hasStart ? scan.start : nil), areEqual: areEqual)
        }, run: { observable, observer in
            // Always this class, as above.
            let scan = observable.asRunOwner(ScanObservable<Input, State>.self)
            // Each read once: they are `var`s (see ScanFusing), each read an access check.
            let fused = scan.fused
            let start = scan.start
            // Over a merge, one object is the merge's subscription and the scan's (MergeScanSink.swift).
            if let merge = scan.source as? SmallMergeObservable<Input> {
                return scan.subscribeMerged(observer, fused: fused, start: start) { merge.subscribeSources(into: $0) }
            }
            if let merge = scan.source as? MergeObservable<Input> {
                return scan.subscribeMerged(observer, fused: fused, start: start) { merge.subscribeSources(into: $0) }
            }
            let sink = ScanSink(
                observer, seed: scan.seed, accumulator: scan.accumulator, start: start, hasStart: fused.hasStart,
                areEqual: fused.areEqual)
            if fused.hasStart {
                sink.forward(start)
                // Nothing holds the sink yet, so nothing can have disposed it; kept for safety.
                guard !sink.isDisposed else { return sink }
            }
            sink.setUpstream(scan.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        })
    }

    /// Subscribes `observer` to this scan over a merge whose `subscribeSources` subscribes its
    /// sources into the sink given: one ``MergeScanSink``, the fused start emitted first.
    @inlinable final func subscribeMerged(
        _ observer: AnyObserver<State>, fused: ScanFused<State>, start: State,
        subscribeSources: (MergeSink<Input>) -> Void
    ) -> any Disposable {
        let sink = MergeScanSink(
            observer, seed: seed, accumulator: accumulator, start: start, hasStart: fused.hasStart,
            areEqual: fused.areEqual)
        if fused.hasStart {
            sink.emit(start)
            // Nothing holds the sink yet, so nothing can have disposed it; kept for safety.
            guard !sink.isDisposed else { return sink }
        }
        subscribeSources(sink)
        return sink
    }
}

/// A `scan`'s accumulator as its author wrote it: stored as given, so that the returning form
/// needs no closure wrapping it (one object fewer per `scan`).
@usableFromInline enum ScanAccumulator<Input, State> {
    case returning((State, Input) throws -> State)
    case inPlace((inout State, Input) throws -> Void)
}
