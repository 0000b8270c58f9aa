import JSONCore
import ReactiveCore
import ViewModelKit

/// One output of one instance as the server watches it: ONE observation of the host however
/// many subscriptions (on however many connections) watch it, each value encoded ONCE to
/// bytes and handed to every tap in the same order (O5).
final class OutputChannel {
    /// One subscription watching this output, through its slot `slot`.
    struct Tap {
        let subscription: Subscription
        let slot: Int
    }

    let output: String
    private(set) var taps: [Tap] = []
    private var observation: (any Disposable)?
    /// The encoded value, reused from value to value. (Unchecked exclusivity: only touched in
    /// `deliver`, which copies it to a local before any call that could re-enter.)
    @exclusivity(unchecked) private var encoded: [UInt8] = []

    init(output: String) {
        self.output = output
    }

    /// Adds a tap, observing the instance when it is the first.
    func add(_ tap: Tap, instance: ViewModelInstance) throws(ViewModelError) {
        if observation == nil {
            // Strong capture: `stop()` disposes the observation, which breaks the cycle.
            observation = try instance.observe(output: output) { value in
                self.deliver(value)
            }
        }
        taps.append(tap)
    }

    /// Removes `subscription`'s tap; returns whether the channel is now unused (and stops
    /// observing then).
    func remove(_ subscription: Subscription) -> Bool {
        taps.removeAll { $0.subscription === subscription }
        guard taps.isEmpty else { return false }
        stop()
        return true
    }

    /// Stops observing (the instance is gone or nobody watches).
    func stop() {
        observation?.dispose()
        observation = nil
        taps = []
    }

    /// The hot path: encode once, then one notification per tap.
    private func deliver(_ value: JSONValue) {
        encoded.removeAll(keepingCapacity: true)
        JSONSerializer.append(value, to: &encoded)
        // Iterating a copy: a delivery may close a subscription (and edit `taps`) mid-way.
        let current = taps
        let bytes = encoded
        for tap in current {
            tap.subscription.deliver(slot: tap.slot, encodedValue: bytes)
        }
    }
}
