/// One descriptor the kernel reported ready: the token it was registered with and what it is
/// ready for.
struct ReadyDescriptor {
    var token: UInt64
    var events: IOEvents
}

/// What ``EventLoop`` needs from a readiness backend: keep an interest set keyed by descriptor
/// number, each entry carrying an opaque token, and wait for readiness.
///
/// Contract shared by both implementations (EventLoopEpoll.swift, EventLoopPoll.swift):
/// `add` of a number already present fails with `EEXIST`; `modify` of an absent one fails with
/// `ENOENT`; `remove` never fails; `wait` reports hang-ups and errors whatever the interest and
/// never reports a descriptor that was closed while registered.
protocol EventLoopPoller: AnyObject {
    func add(fd: Int32, interest: IOInterest, token: UInt64) throws
    func modify(fd: Int32, interest: IOInterest, token: UInt64) throws
    func remove(fd: Int32)
    /// Blocks within `limit` and appends what is ready (it may return early, with nothing).
    func wait(_ limit: WaitLimit, into ready: inout [ReadyDescriptor]) throws
}

/// How long an ``EventLoopPoller`` wait may block.
enum WaitLimit {
    /// Not at all: report what is ready now.
    case immediately
    /// Until something is ready.
    case forever
    /// Until something is ready or the monotonic clock (``MonotonicClock``) reaches this
    /// deadline in nanoseconds.
    case until(UInt64)

    /// The limit as a `poll(2)` timeout from `now`: -1 forever, rounded up, since waking a
    /// little late is fine and waking early would spin until the deadline.
    func milliseconds(now: UInt64) -> Int32 {
        switch self {
        case .immediately: return 0
        case .forever: return -1
        case .until(let deadline):
            guard deadline > now else { return 0 }
            return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
        }
    }
}

extension EventLoopBackend {
    /// A fresh poller of this kind. Asking for epoll where it does not exist throws `ENOSYS`.
    func makePoller() throws -> any EventLoopPoller {
        switch self {
        case .epoll: try EpollPoller()
        case .poll: PollPoller()
        }
    }
}
