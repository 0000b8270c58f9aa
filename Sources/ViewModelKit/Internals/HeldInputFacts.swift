import ReactiveCore

/// An input's facts, held as an unmanaged reference: ``Input/send(_:)`` reads them for every
/// value without retaining and releasing them (the reason and its figure: README
/// "Performance").
///
/// Sound because the reference is retained once, by ``init(retaining:)``, and released once, by
/// ``release()`` (the input's `deinit`, or the input replacing it in `attach`), and because an
/// input's facts are always an ``InputFacts`` of its value type (its `init` and `attach` keep
/// that class), which ``deliver(_:to:)`` relies on.
@usableFromInline struct HeldInputFacts {
    @usableFromInline let reference: Unmanaged<PortFacts>

    /// Holds `facts`, retained until ``release()``.
    @inlinable init(retaining facts: PortFacts) {
        reference = Unmanaged.passRetained(facts)
    }

    /// The facts, not retained: the holder keeps them alive.
    @usableFromInline var facts: PortFacts { reference.takeUnretainedValue() }

    /// Gives up the retain taken by ``init(retaining:)``.
    @inlinable func release() {
        reference.release()
    }

    /// Hands `value` to the delivery of the facts (an ``InputFacts`` of `Value`, see above).
    @inlinable func deliver<Value>(_ value: Value, to input: Input<Value>) {
        reference._withUnsafeGuaranteedRef { facts in
            unsafeDowncast(facts, to: InputFacts<Value>.self).deliver(input, value)
        }
    }
}
