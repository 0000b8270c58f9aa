import JSONCore

/// A state's fan-out, held as an unmanaged reference: every value then goes out without a
/// retain and release of it (the checked optional reference paid one on every `vm.send` →
/// `vm.output` of a watched state).
///
/// Sound because the state that holds it retains it once, by ``init(retaining:)``, and
/// releases it once, by its `deinit`: the fan-out lives exactly as long as the state, which
/// every caller of ``emit(_:encode:)`` holds.
@usableFromInline struct HeldFanOut<Value> {
    @usableFromInline let reference: Unmanaged<OutputFanOut<Value>>

    /// Holds `fanOut`, retained until ``release()``.
    @inlinable init(retaining fanOut: OutputFanOut<Value>) {
        reference = Unmanaged.passRetained(fanOut)
    }

    /// The fan-out, not retained: the state keeps it alive.
    @inlinable var fanOut: OutputFanOut<Value> { reference.takeUnretainedValue() }

    /// Gives up the retain taken by ``init(retaining:)``.
    @inlinable func release() {
        reference.release()
    }

    /// `value` goes out through the fan-out.
    @inlinable func emit(_ value: Value, encode: (Value) -> JSONValue, writeText: ((Value, inout [UInt8]) -> Void)?) {
        reference._withUnsafeGuaranteedRef { $0.emit(value, encode: encode, writeText: writeText) }
    }

    /// The last value queued behind the one being delivered (OutputFanOut.swift), if any.
    @inlinable var lastQueued: Value? {
        reference._withUnsafeGuaranteedRef { $0.queue.last }
    }
}
