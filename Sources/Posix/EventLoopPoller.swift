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
    /// Blocks up to `timeoutMilliseconds` (-1 forever, 0 not at all) and appends what is ready.
    func wait(timeoutMilliseconds: Int32, into ready: inout [ReadyDescriptor]) throws
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
