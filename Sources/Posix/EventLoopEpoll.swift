#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// The `epoll(7)` backend of ``EventLoop`` (Linux; elsewhere CPosix's stubs fail with `ENOSYS`).
///
/// A wait with a deadline does not hand `epoll_wait` a timeout: the deadline arms a timerfd in
/// the epoll set instead, and `epoll_wait` blocks without one. A timeout makes the kernel arm
/// and cancel a timer on every wait that sleeps, and a daemon nearly always has a timer pending
/// (``EventLoop`` users re-arm idle checks every second under load), a cost paid on every
/// request-reply round trip (Performance.md, "Benchmarks"). The timerfd is re-armed only when a wait asks for an earlier deadline than
/// the one set; a later or cancelled one just wakes the loop once for nothing.
final class EpollPoller: EventLoopPoller {
    private let epoll: FileDescriptor
    /// Filled by `epoll_wait`. A buffer allocated once rather than an array property: reading
    /// the events back touches no exclusivity check, uniqueness check or bounds check.
    private let events: UnsafeMutableBufferPointer<cposix_epoll_event>
    /// Expires at ``armedDeadline``; registered with ``timerToken``.
    private let timer: FileDescriptor
    /// The deadline (monotonic nanoseconds) `timer` is armed for; nil when it is not armed or
    /// has expired since.
    private var armedDeadline: UInt64?
    /// The timer's token: no registration makes it (its descriptor half would be -1).
    private static let timerToken = UInt64.max

    init() throws {
        epoll = FileDescriptor(adopting: try retryingOnInterrupt("epoll_create1") { cposix_epoll_create() })
        timer = FileDescriptor(adopting: try retryingOnInterrupt("timerfd_create") { cposix_timerfd_monotonic() })
        events = .allocate(capacity: 256)
        events.initialize(repeating: cposix_epoll_event())
        try add(fd: timer.rawValue, interest: .readable, token: Self.timerToken)
    }

    deinit {
        events.deallocate()
    }

    func add(fd: Int32, interest: IOInterest, token: UInt64) throws {
        let epfd = epoll.rawValue
        let mask = Self.mask(interest)
        try retryingOnInterrupt("epoll_ctl(ADD, \(fd))") { cposix_epoll_ctl(epfd, 1, fd, mask, token) }
    }

    func modify(fd: Int32, interest: IOInterest, token: UInt64) throws {
        let epfd = epoll.rawValue
        let mask = Self.mask(interest)
        try retryingOnInterrupt("epoll_ctl(MOD, \(fd))") { cposix_epoll_ctl(epfd, 2, fd, mask, token) }
    }

    func remove(fd: Int32) {
        let epfd = epoll.rawValue
        // EBADF/ENOENT: the descriptor was closed first, which already removed it from epoll.
        _ = try? retryingOnInterrupt("epoll_ctl(DEL, \(fd))") { cposix_epoll_ctl(epfd, 3, fd, 0, 0) }
    }

    func wait(_ limit: WaitLimit, into ready: inout [ReadyDescriptor]) throws {
        let epfd = epoll.rawValue
        let capacity = Int32(events.count)
        guard let base = events.baseAddress else { return }
        var timeout: Int32 = -1
        switch limit {
        case .immediately: timeout = 0
        case .forever: break
        case .until(let deadline):
            if !arm(until: deadline) { timeout = limit.milliseconds(now: MonotonicClock.nanoseconds()) }
        }
        let count = try retryingOnInterrupt("epoll_wait") { cposix_epoll_wait(epfd, base, capacity, timeout) }
        for index in 0..<Int(count) {
            let event = events[index]
            if event.data == Self.timerToken {
                drainTimer()
                continue
            }
            ready.append(ReadyDescriptor(token: event.data, events: Self.events(event.events)))
        }
    }

    /// Makes the timer expire by `deadline`; false if the kernel refused (the caller then
    /// falls back to a timeout).
    private func arm(until deadline: UInt64) -> Bool {
        if let armedDeadline, armedDeadline <= deadline { return true }
        guard cposix_timerfd_arm(timer.rawValue, deadline) == 0 else { return false }
        armedDeadline = deadline
        return true
    }

    /// Consumes the timer's expiry, so it stops being readable.
    private func drainTimer() {
        armedDeadline = nil
        var expirations: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &expirations) { try? timer.read(into: $0) }
    }

    private static func mask(_ interest: IOInterest) -> UInt32 {
        var mask: UInt32 = 0
        if interest.contains(.readable) { mask |= CPOSIX_EPOLLIN | CPOSIX_EPOLLRDHUP }
        if interest.contains(.writable) { mask |= CPOSIX_EPOLLOUT }
        return mask
    }

    private static func events(_ kernel: UInt32) -> IOEvents {
        var ready: IOEvents = []
        if kernel & CPOSIX_EPOLLIN != 0 { ready.insert(.readable) }
        if kernel & CPOSIX_EPOLLOUT != 0 { ready.insert(.writable) }
        if kernel & (CPOSIX_EPOLLHUP | CPOSIX_EPOLLRDHUP) != 0 { ready.insert(.hangup) }
        if kernel & CPOSIX_EPOLLERR != 0 { ready.insert(.error) }
        return ready
    }
}
