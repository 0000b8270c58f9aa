import JSONCore

/// What a ``VMClient`` tells its owner through ``VMClient/events``, besides replies and
/// subscription values.
public enum VMClientEvent: Sendable, Hashable {
    /// A notification no subscription or monitor of this client claims; chiefly `vm.error`
    /// (a fire-and-forget `vm.send` or `vm.execute` failed), and notifications newer than
    /// this client.
    case notification(method: String, params: JSONValue)
    /// An error reply the daemon could not address to a request (`id: null`): a frame it
    /// could not read, or a limit on the whole frame.
    case unaddressedError(VMRemoteError)
    /// The connection ended. Pending calls failed with ``VMClientError/disconnected(reason:)``
    /// and every subscription and monitor sequence ended with that error.
    case disconnected(reason: String)
    /// Reconnecting (only with a ``VMReconnectPolicy``): attempt number, and the wait before it.
    case reconnecting(attempt: Int, delay: Duration)
    /// Connected again. Nothing was re-created: instances with scope `connection` are gone,
    /// and a new ``bootID`` means the daemon restarted and every instance is gone.
    case reconnected(bootID: String?)
    /// Reconnecting stopped after the policy's last attempt; the client is closed.
    case gaveUp(attempts: Int)
}

/// How a ``VMClient`` reconnects after losing its daemon: exponential backoff, capped.
///
/// Reconnecting re-creates nothing on its own (instances, subscriptions, monitors): the
/// client says what happened through ``VMClient/events`` and the owner decides.
public struct VMReconnectPolicy: Sendable, Hashable {
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// Each wait is the previous one times this.
    public var multiplier: Double
    /// Give up after this many attempts; `nil` tries for ever.
    public var maximumAttempts: Int?

    public init(
        initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(2),
        multiplier: Double = 2, maximumAttempts: Int? = nil
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before attempt `attempt` (1-based).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        var step = 1
        while step < attempt && delay < maximumDelay {
            delay = delay * multiplier
            step += 1
        }
        return min(delay, maximumDelay)
    }
}
