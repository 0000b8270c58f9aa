/// What a `scan`'s subscription does with each element, shared by its two kinds: ``ScanSink``
/// (a scan observing its source) and ``MergeScanSink`` (a scan over a merge, which is the
/// merge's subscription too). Each class's stored properties are the requirements, so the
/// steps below, called on either class where its types are known, specialize with it: no
/// witness is called.
///
/// With a fused `distinctUntilChanged()` (`areEqual` given) no element of its own is needed:
/// after the first state, the last element emitted equals the state before each new one (each
/// state is either emitted or equal to the last emitted). Only the first state compares with
/// something else, the start (or, with no start, nothing: it always passes); `firstPending`
/// marks it, and is read only when the start is not equal to the seed (`firstDiffers`; a view
/// model's usual `scan(start) { … }.startWith(start)` never reads it).
@usableFromInline protocol ScanStepping: AnyObject {
    associatedtype Input
    associatedtype State

    var state: State { get set }
    var accumulator: ScanAccumulator<Input, State> { get }
    var areEqual: ((State, State) -> Bool)? { get }
    /// What the first state is compared with when `firstPending`.
    var start: State { get }
    var hasStart: Bool { get }
    /// Whether the first state is still to come and compares with something other than the
    /// seed; fixed false when it compares with the seed.
    var firstDiffers: Bool { get }
    var firstPending: Bool { get set }

    /// Forwards `state`, unless this subscription ended.
    func emit(_ state: State)
    /// Ends this subscription with `error`.
    func forwardError(_ error: any Error)
}

extension ScanStepping {
    /// Accumulates `element` into the state and emits the new state unless the fused distinct
    /// drops it; an accumulator that throws ends this subscription with its error. Inlined
    /// into each sink's receiving function, as it was written in `ScanSink.on` (a call of its
    /// own cost every element ~16 instructions, `.ci/instructions`, `send`).
    @inline(__always)
    @inlinable func accumulate(_ element: Input) {
        do {
            switch accumulator {
            case .returning(let accumulate):
                let before = state
                let after = try accumulate(before, element)
                state = after
                if passes(after, before: before) { emit(after) }
            case .inPlace(let accumulate):
                guard areEqual != nil else {
                    try accumulate(&state, element)
                    emit(state)
                    return
                }
                let before = state
                try accumulate(&state, element)
                let after = state
                if passes(after, before: before) { emit(after) }
            }
        } catch {
            forwardError(error)
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
