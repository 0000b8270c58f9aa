import JSONCore
import ReactiveCore
import ViewModelKit

/// One output of one instance as the server watches it: ONE observation of the host however
/// many subscriptions (on however many connections) watch it, each value encoded ONCE to
/// bytes and handed to every tap in the same order (O5).
///
/// Patch subscriptions (`patches: true`) of a state output: each value the channel sees gets
/// a *generation* number, and while any patch subscription taps the channel it keeps the
/// latest value (`previous`). A patch subscription that received the previous generation
/// gets the one patch from `previous` to the new value, computed once and shared; any other
/// (it lost values, or has received nothing yet) gets the value, as does everyone when the
/// patch would not be shorter than the value.
///
/// A state that says its own change as a patch (a `State<IdentifiedList<…>>` changed through
/// `update`, see ``deliverPatch(_:)``) skips both the diff and `previous`: its patch goes to
/// patch subscriptions that hold the previous generation, and the value is encoded only when
/// another subscription needs it.
final class OutputChannel {
    /// One subscription watching this output, through its slot `slot`.
    struct Tap {
        let subscription: Subscription
        let slot: Int
    }

    let output: String
    let kind: OutputKind
    /// (Unchecked exclusivity: edited only by single statements in `add`, `remove` and `stop`,
    /// whose only closure compares identities; `deliver` reads it once into a copy.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var taps: [Tap] = []
    /// How many taps belong to patch subscriptions.
    private var patchTaps = 0
    /// The number of the latest value seen (1 before the first).
    private(set) var generation: UInt64 = 1
    /// The latest value (the output's current value), kept only while patch taps exist.
    private(set) var previous: JSONValue?
    private var observation: (any Disposable)?
    /// The observed instance, for the current value a patch's delivery may need (encoded once
    /// per change by the state, then cached); set with the observation, dropped by `stop()`.
    /// Strong, not weak: a weak reference gives the instance a side table, which made every
    /// retain and release of it slow (`send` of .ci/instructions: 4,021 against 3,808).
    private var instance: ViewModelInstance?
    /// The encoded value, reused from value to value. (Unchecked exclusivity: only touched in
    /// `deliver`, which copies it to a local before any call that could re-enter.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var encoded: [UInt8] = []

    init(output: String, kind: OutputKind) {
        self.output = output
        self.kind = kind
    }

    /// A patch subscription was just sent `value`, the output's current value, outside this
    /// channel (its replay): from now on it holds the current generation.
    func noteReplayed(_ value: JSONValue) -> UInt64 {
        if previous == nil { previous = value }
        return generation
    }

    /// Adds a tap, observing the instance when it is the first.
    func add(_ tap: Tap, instance: ViewModelInstance) throws(ViewModelError) {
        if observation == nil {
            // Strong capture: `stop()` disposes the observation, which breaks the cycle.
            self.instance = instance
            observation = try instance.observe(
                output: output, { value in self.deliver(value) }, patches: { patch, atLeast in self.deliverPatch(patch, valueBytesAtLeast: atLeast) },
                text: { writeText, tree in self.deliver(writing: writeText, tree: tree) })
        }
        taps.append(tap)
        if tap.subscription.patches && kind == .state { patchTaps += 1 }
    }

    /// Removes `subscription`'s tap; returns whether the channel is now unused (and stops
    /// observing then).
    func remove(_ subscription: Subscription) -> Bool {
        taps.removeAll { $0.subscription === subscription }
        patchTaps = taps.reduce(0) { $1.subscription.patches && kind == .state ? $0 + 1 : $0 }
        if patchTaps == 0 { previous = nil }
        guard taps.isEmpty else { return false }
        stop()
        return true
    }

    /// Stops observing (the instance is gone or nobody watches).
    func stop() {
        observation?.dispose()
        observation = nil
        instance = nil
        taps = []
        patchTaps = 0
        previous = nil
    }

    /// The hot path: encode once, then one notification per tap.
    private func deliver(_ value: JSONValue) {
        if patchTaps == 0, taps.count == 1, case .integer(let number) = value {
            // One watcher of an integer (a counter's state): its digits go straight into the
            // transport's buffer, never encoded aside.
            let only = taps[0]
            only.subscription.deliver(slot: only.slot, integerValue: number)
            return
        }
        encoded.removeAll(keepingCapacity: true)
        JSONSerializer.append(value, to: &encoded)
        let bytes = encoded
        guard patchTaps > 0 else {
            deliverToEveryTap(bytes)
            return
        }
        // Iterating a copy: a delivery may close a subscription (and edit `taps`) mid-way.
        let current = taps
        let from = generation
        generation += 1
        let now = generation
        let base = previous
        previous = value
        // The shared patch, computed on the first subscription that can use it; `nil` inside
        // when it is not shorter than the value.
        var patch: [UInt8]??
        for tap in current {
            let subscription = tap.subscription
            if let base, subscription.holds(slot: tap.slot, generation: from) {
                if patch == nil { patch = .some(Self.encodedPatch(from: base, to: value, limit: bytes.count)) }
                if case .some(.some(let encodedPatch)) = patch {
                    subscription.deliver(slot: tap.slot, encodedPatch: encodedPatch, generation: now) { bytes }
                    continue
                }
            }
            subscription.deliver(slot: tap.slot, encodedValue: bytes, generation: now)
        }
    }

    /// A value whose type writes its own text (`JSONByteWritable`), given as `writeText`: its
    /// bytes, written without a tree, to every tap. Patch taps diff trees, so while there are
    /// any the tree is made (`tree`) and goes the way of any value.
    private func deliver(writing writeText: (inout [UInt8]) -> Void, tree: () -> JSONValue) {
        guard patchTaps == 0 else {
            deliver(tree())
            return
        }
        encoded.removeAll(keepingCapacity: true)
        writeText(&encoded)
        deliverToEveryTap(encoded)
    }

    /// `bytes`, a value's encoding, to every tap (none of them a patch tap).
    private func deliverToEveryTap(_ bytes: [UInt8]) {
        if taps.count == 1 {
            // One watcher (the common case): its tap is copied out before the call, so no copy
            // of the list is needed.
            let only = taps[0]
            only.subscription.deliver(slot: only.slot, encodedValue: bytes)
            return
        }
        // Iterating a copy: a delivery may close a subscription (and edit `taps`) mid-way.
        for tap in taps {
            tap.subscription.deliver(slot: tap.slot, encodedValue: bytes)
        }
    }

    /// A change the state said as `patch` (from the value of the current generation): the
    /// patch, encoded once, to each patch subscription holding that generation; the value,
    /// encoded once and only if someone needs it, to every other (and kept by a patch
    /// subscription in case its connection is full). As for a diffed patch, the value goes
    /// instead when the patch is not shorter; the value is encoded to tell only when the
    /// patch is not shorter than `valueBytesAtLeast`, the value's least possible length.
    private func deliverPatch(_ patch: JSONPatch, valueBytesAtLeast: Int) {
        let from = generation
        generation += 1
        let now = generation
        // Nothing to diff against any more: the next whole value goes whole.
        previous = nil
        var encodedValue: [UInt8]?
        func valueBytes() -> [UInt8] {
            if let encodedValue { return encodedValue }
            var bytes: [UInt8] = []
            JSONSerializer.append((try? instance?.currentValue(output: output)) ?? .null, to: &bytes)
            encodedValue = bytes
            return bytes
        }
        var encodedPatch: [UInt8]?
        let current = taps
        for tap in current {
            let subscription = tap.subscription
            guard kind == .state, subscription.holds(slot: tap.slot, generation: from) else {
                subscription.deliver(slot: tap.slot, encodedValue: valueBytes(), generation: now)
                continue
            }
            let bytes = encodedPatch ?? {
                var bytes: [UInt8] = []
                JSONSerializer.append(patch.jsonValue, to: &bytes)
                return bytes
            }()
            encodedPatch = bytes
            if bytes.count >= valueBytesAtLeast, bytes.count >= valueBytes().count {
                subscription.deliver(slot: tap.slot, encodedValue: valueBytes(), generation: now)
                continue
            }
            subscription.deliver(slot: tap.slot, encodedPatch: bytes, generation: now, encodedValue: valueBytes)
        }
    }

    /// The encoded patch from `old` to `new`, or `nil` when it is not shorter than `limit`
    /// bytes (the value's encoding).
    static func encodedPatch(from old: JSONValue, to new: JSONValue, limit: Int) -> [UInt8]? {
        // A patch of more operations than this cannot be shorter: the diff gives up early.
        guard let patch = JSONPatch(from: old, to: new, maximumOperations: limit / JSONPatch.minimumOperationBytes) else { return nil }
        var bytes: [UInt8] = []
        JSONSerializer.append(patch.jsonValue, to: &bytes)
        return bytes.count < limit ? bytes : nil
    }
}
