/// A `scan`'s subscription, with a fused `distinctUntilChanged()` when `areEqual` is given
/// (``ScanObservable``; what it does with each element is ``ScanStepping``'s). A scan over a
/// merge has ``MergeScanSink`` instead.
@usableFromInline final class ScanSink<Input, State>: Sink<State>, ScanStepping {
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
        state = seed
        self.accumulator = accumulator
        self.areEqual = areEqual
        self.start = start
        self.hasStart = hasStart
        let differs = ScanFused(hasStart: hasStart, areEqual: areEqual).firstDiffers(start: start, seed: seed)
        firstDiffers = differs
        firstPending = differs
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            accumulate(element)
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    @inline(__always)
    @inlinable func emit(_ state: State) { forward(state) }
}
