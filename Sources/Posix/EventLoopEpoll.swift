#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// The `epoll(7)` backend of ``EventLoop`` (Linux; elsewhere CPosix's stubs fail with `ENOSYS`).
final class EpollPoller: EventLoopPoller {
    private let epoll: FileDescriptor
    /// Filled by `epoll_wait`. A buffer allocated once rather than an array property: reading
    /// the events back touches no exclusivity check, uniqueness check or bounds check.
    private let events: UnsafeMutableBufferPointer<cposix_epoll_event>

    init() throws {
        epoll = FileDescriptor(adopting: try retryingOnInterrupt("epoll_create1") { cposix_epoll_create() })
        events = .allocate(capacity: 256)
        events.initialize(repeating: cposix_epoll_event())
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

    func wait(timeoutMilliseconds: Int32, into ready: inout [ReadyDescriptor]) throws {
        let epfd = epoll.rawValue
        let capacity = Int32(events.count)
        guard let base = events.baseAddress else { return }
        let count = try retryingOnInterrupt("epoll_wait") { cposix_epoll_wait(epfd, base, capacity, timeoutMilliseconds) }
        for index in 0..<Int(count) {
            let event = events[index]
            ready.append(ReadyDescriptor(token: event.data, events: Self.events(event.events)))
        }
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
