/// A `scan`'s subscription, with a fused `distinctUntilChanged()` when `areEqual` is given
/// (``ScanObservable``).
///
/// The distinct needs no element of its own: after the first state, the last element emitted
/// equals the state before each new one (each state is either emitted or equal to the last
/// emitted). Only the first state compares with something else, the start (or, with no start,
/// nothing: it always passes); `firstPending` marks it, and is read only when the start is not
/// equal to the seed (a view model's usual `scan(start) { … }.startWith(start)` never reads it).
@usableFromInline final class ScanSink<Input, State>: Sink<State> {
    @usableFromInline var state: State
    @usableFromInline let accumulator: ScanAccumulator<Input, State>
    @usableFromInline let areEqual: ((State, State) -> Bool)?
    /// What the first state is compared with when `firstPending`.
    @usableFromInline let start: State
    @usableFromInline let hasStart: Bool
    /// Whether the first state is still to come and compares with something other than the
    /// seed; fixed false when it compares with the seed.
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
        let differs = if let areEqual { !hasStart || !areEqual(start, seed) } else { false }
        firstDiffers = differs
        firstPending = differs
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                switch accumulator {
                case .returning(let accumulate):
                    let before = state
                    let after = try accumulate(before, element)
                    state = after
                    if passes(after, before: before) { forward(after) }
                case .inPlace(let accumulate):
                    guard areEqual != nil else {
                        try accumulate(&state, element)
                        forward(state)
                        return
                    }
                    let before = state
                    try accumulate(&state, element)
                    let after = state
                    if passes(after, before: before) { forward(after) }
                }
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }

    /// Whether the fused distinct (if any) lets the new state `after` through.
    @inline(__always)
    @inlinable func passes(_ after: State, before: State) -> Bool {
        guard let areEqual else { return true }
        if firstDiffers, firstPending {
            firstPending = false
            return !(hasStart && areEqual(start, after))
        }
        return !areEqual(before, after)
    }
}
