import JSONCore

/// What a reconnecting ``VMClient`` knows of its resumable session (`session.open`) and of
/// the resume in progress. Lives in ``ClientCore/State`` and changes under its mutex.
///
/// A resume goes: `session.resume {token}` (the first request of the new connection) → a
/// sentinel `daemon.info` whose reply comes after everything the daemon queued while
/// detached (Protocol/PROTOCOL.md, section 18: the resume's reply, then what was queued,
/// then live messages). Between the resume's reply and the sentinel's, the client collects
/// what was lost. A refused resume → `daemon.info`, to tell a restart from an expiry.
struct ClientSessionState {
    /// Where a reconnect's handshake stands.
    enum Phase: Equatable {
        /// No handshake in progress.
        case idle
        /// `session.resume` sent.
        case resuming
        /// The resume was refused; `daemon.info` sent for the boot id.
        case probing
        /// The resume answered; the sentinel `daemon.info` is on its way.
        case settling
    }

    /// Reconnecting is on, so the client keeps a session open (across restarts too).
    var wanted = false
    /// The token `session.open` answered; `nil` when the session is not resumable.
    var token: String?
    /// The session id (`"s3"`).
    var id: String?
    /// The `bootId` of the daemon that holds the session.
    var bootID: String?
    var phase = Phase.idle
    /// Request ids below this one were sent on a connection that was lost.
    var heldBelow: Int64 = 0
    /// The request ids `session.resume` said the daemon still runs for this session.
    var resumedPending: Set<Int64> = []
    /// Per subscription, the last `seq` delivered (only while the session is resumable).
    var lastSeq: [String: Int64] = [:]
    /// What the resume in progress found lost.
    var lost: [VMLostRange] = []

    /// Whether a dropped connection keeps its calls, subscriptions and monitors for a resume.
    var isResumable: Bool { token != nil }

    /// Notes a value about to be delivered; during a resume, a gap in `seq` is recorded as
    /// lost. False for a `seq` already delivered (a duplicate, Protocol/PROTOCOL.md section
    /// 18), which is dropped.
    mutating func accept(subscription: String, seq: Int64) -> Bool {
        guard token != nil else { return true }
        let last = lastSeq[subscription]
        if let last, seq <= last { return false }
        if phase == .settling, let last, seq > last + 1 {
            lost.append(VMLostRange(subscription: subscription, fromSeq: last + 1, toSeq: seq - 1))
        }
        lastSeq[subscription] = seq
        return true
    }

    /// Notes a `vm.overflow`; during a resume, its range is recorded as lost.
    mutating func observeOverflow(subscription: String, range: ClosedRange<Int64>) {
        guard token != nil else { return }
        let last = lastSeq[subscription] ?? 0
        if phase == .settling, range.upperBound > last {
            lost.append(VMLostRange(subscription: subscription, fromSeq: max(range.lowerBound, last + 1), toSeq: range.upperBound))
        }
        lastSeq[subscription] = max(range.upperBound, last)
    }

    /// Forgets the session (expired, daemon restarted, closed).
    mutating func reset() {
        token = nil
        id = nil
        phase = .idle
        resumedPending = []
        lastSeq = [:]
        lost = []
    }
}
