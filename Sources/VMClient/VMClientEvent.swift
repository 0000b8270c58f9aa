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
    /// The connection ended. Without a resumable session, pending calls failed with
    /// ``VMClientError/disconnected(reason:)`` and every subscription and monitor sequence
    /// ended with that error; with one, they wait for the resume.
    case disconnected(reason: String)
    /// Reconnecting (only with a ``VMReconnectPolicy``): attempt number, and the wait before it.
    case reconnecting(attempt: Int, delay: Duration)
    /// Connected again. Without a resumable session nothing was re-created: instances with
    /// scope `connection` are gone, and a new ``bootID`` means the daemon restarted and every
    /// instance is gone. With one, ``resumed(session:lost:)``, ``daemonRestarted(bootID:)``
    /// or ``sessionExpired(session:)`` came just before and says which.
    case reconnected(bootID: String?)
    /// Reconnecting stopped after the policy's last attempt; the client is closed.
    case gaveUp(attempts: Int)
    /// The session was resumed on the new connection (`session.resume`): calls,
    /// subscriptions and monitors continue where they were. `lost` lists the values that will
    /// never arrive (empty when nothing was lost); after such a loss the current value of each
    /// watched state output arrives again (a replay). Comes before ``reconnected(bootID:)``.
    case resumed(session: String, lost: [VMLostRange])
    /// The daemon restarted (its `bootId` changed) while the client was away: pending calls
    /// and monitors failed, and the client goes on with a new session. Each subscription is
    /// opened again on its instance (`vm.subscribe` with replay): where the instance came
    /// back (a durable one) the same ``VMSubscription`` goes on with its current values
    /// (replays, `seq` from 1 again); where it did not, it ends with
    /// ``VMSubscriptionEvent/closed(reason:)`` reason `"daemonRestarted"`. Told before any
    /// of those values, and before ``reconnected(bootID:)``.
    case daemonRestarted(bootID: String?)
    /// The daemon no longer knows the session (`unknownSession`: the grace ran out): every
    /// subscription ended with reason `"sessionExpired"`, pending calls and monitors failed,
    /// and the client goes on with a new session. Comes before ``reconnected(bootID:)``.
    case sessionExpired(session: String?)
}

/// How a ``VMClient`` reconnects after losing its daemon: exponential backoff, capped.
///
/// With a policy the client opens a resumable session (`session.open`) when it connects;
/// after a drop it reconnects and resumes it (`session.resume`), so calls, subscriptions and
/// monitors continue (``VMClientEvent/resumed(session:lost:)``). Against a daemon without
/// sessions (or with `--session-grace-ms 0`) reconnecting re-creates nothing: the client
/// says what happened through ``VMClient/events`` and the owner decides.
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
