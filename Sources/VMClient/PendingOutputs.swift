/// The subscription values one socket read routed, per channel, put into their channels
/// together once the read's frames are routed (ClientCore+Routing.swift): each channel is
/// locked once per read instead of once per value, and takes the read's values in one move.
/// Lives in ``ClientCore/State`` (changed under the client's lock, on the loop thread).
struct PendingOutputs {
    private var channels: [SubscriptionChannel] = []
    private var events: [[VMSubscriptionEvent]] = []
    /// The channel appended to last (a busy connection's values cycle through its channels:
    /// the one after it is tried next).
    private var last = 0
    /// The most values one channel got in the last flush (at most 256): the capacity a
    /// channel's list starts with, so a busy read's lists do not grow step by step.
    private var expectedCount = 1

    /// Holds `event` for `channel`, after the values held for it before.
    mutating func append(_ event: consuming VMSubscriptionEvent, to channel: SubscriptionChannel) {
        events[index(of: channel)].append(event)
    }

    /// Puts every held value into its channel, in order; a channel whose consumer waits gets
    /// a `.wake` delivery.
    mutating func flush(into deliveries: inout [ClientCore.Delivery]) {
        guard !channels.isEmpty else { return }
        var most = 1
        for index in channels.indices {
            most = max(most, events[index].count)
            if channels[index].append(contentsOf: &events[index]) { deliveries.append(.wake(channels[index])) }
        }
        expectedCount = min(most, 256)
        channels.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        last = 0
    }

    private mutating func index(of channel: SubscriptionChannel) -> Int {
        let count = channels.count
        if last < count {
            if channels[last] === channel { return last }
            let following = last &+ 1 == count ? 0 : last &+ 1
            if channels[following] === channel {
                last = following
                return following
            }
        }
        if let found = channels.firstIndex(where: { $0 === channel }) {
            last = found
            return found
        }
        channels.append(channel)
        var list: [VMSubscriptionEvent] = []
        list.reserveCapacity(expectedCount)
        events.append(list)
        last = count
        return count
    }
}
