import VMProtocol

/// What a subscription watches, as its opening request said: kept so that after vmd
/// restarted the client can subscribe to the same instance again (ClientCore+Follow.swift).
struct SubscriptionTarget: Sendable {
    /// The instance; `nil` for `vm.create {subscribe}`, whose reply names it.
    var instance: String?
    var options: SubscribeOptions
}

/// A subscription the client can open again after vmd restarted: the id its
/// ``VMSubscription`` knows, and what it watches.
struct FollowedSubscription: Sendable {
    /// The id the subscription was first opened under (``VMSubscription/id``).
    var original: String
    var instance: String
    var options: SubscribeOptions
    /// Known durable (`vm.create {durable: true}` answered so): a `"shutdown"` close of it
    /// waits for the restart. A subscription from `vm.subscribe` does not know, and ends then.
    var isDurable: Bool

    /// The `vm.subscribe` params that open it again: with `replay`, so the current values come.
    var resubscribeParams: VMSubscribeMethod.Params {
        var options = options
        options.replay = true
        return VMSubscribeMethod.Params(instance: instance, options: options)
    }
}
