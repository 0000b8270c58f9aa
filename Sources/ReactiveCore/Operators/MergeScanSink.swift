/// The subscription of a `scan` over a `merge` (``ScanObservable`` over
/// ``SmallMergeObservable`` or ``MergeObservable``, as in a view model's
/// `Observable.merge(inputs…).scan(start) { … }`): one object that is both the merge's
/// subscription, whose sources deliver to it, and the scan's, which accumulates what they
/// deliver (``ScanStepping``, with a fused `startWith` and `distinctUntilChanged()` as on
/// ``ScanSink``).
///
/// It emits what a ``ScanSink`` observing the merge's subscription would: the merge forwards
/// each element to the accumulation at once; a source's error or the merge's completion
/// (after every source completed) ends the merge, disposing its sources, then goes on; an
/// accumulator that throws ends the merge the same way with its error, as the scan sink would
/// dispose its upstream (the merge) before forwarding it; disposing it disposes the sources.
/// It spares an object made and freed per subscription, the merge's subscription handed to
/// the scan sink as an existential, and one call per element (`.ci/instructions`, `create`,
/// `destroy` and `send`).
@usableFromInline final class MergeScanSink<Input, State>: MergeSink<Input>, ScanStepping {
    /// A `let`, as on `Sink`: calling it costs no retain and no exclusivity check.
    @usableFromInline let observer: AnyObserver<State>
    @usableFromInline var state: State
    @usableFromInline let accumulator: ScanAccumulator<Input, State>
    @usableFromInline let areEqual: ((State, State) -> Bool)?
    @usableFromInline let start: State
    @usableFromInline let hasStart: Bool
    @usableFromInline let firstDiffers: Bool
    @usableFromInline var firstPending: Bool

    @inlinable init(
        _ observer: AnyObserver<State>, seed: State, accumulator: ScanAccumulator<Input, State>, start: State,
        hasStart: Bool, areEqual: ((State, State) -> Bool)?
    ) {
        self.observer = observer
        state = seed
        self.accumulator = accumulator
        self.areEqual = areEqual
        self.start = start
        self.hasStart = hasStart
        let differs = ScanFused(hasStart: hasStart, areEqual: areEqual).firstDiffers(start: start, seed: seed)
        firstDiffers = differs
        firstPending = differs
        super.init(receiver: { sink, event in
            // Always this class: only this initializer stores this function.
            let scan = sink.asReceiverOwner(MergeScanSink<Input, State>.self)
            switch event {
            // `forward` delivers an element only while the merge runs.
            case .next(let element): scan.accumulate(element)
            // The merge already ended: its sources are disposed.
            case .error(let error): scan.observer.on(.error(error))
            case .completed: scan.observer.on(.completed)
            }
        })
    }

    @inline(__always)
    @inlinable func emit(_ state: State) {
        if !isDisposed { observer.on(.next(state)) }
    }
}
