#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// The portable `poll(2)` backend of ``EventLoop``: the interest set lives here, as the array
/// handed to every `poll` call.
///
/// Entries are kept dense (removal moves the last entry into the hole) with a side table from
/// descriptor number to position, so add, modify and remove cost O(1) and a wait costs one
/// pass over the registered descriptors.
final class PollPoller: EventLoopPoller {
    private var entries: [pollfd] = []
    private var tokens: [UInt64] = []
    /// Position in `entries` by descriptor number; -1 when absent.
    private var positions: [Int] = []

    /// Peer half-close (`POLLRDHUP`) where the system has it, so a hang-up is reported as
    /// epoll reports it; 0 elsewhere (then the reader sees end-of-file instead).
    private static let readHangup = Int16(truncatingIfNeeded: cposix_poll_rdhup())
    private static let readable = Int16(truncatingIfNeeded: POLLIN)
    private static let writable = Int16(truncatingIfNeeded: POLLOUT)
    private static let hangup = Int16(truncatingIfNeeded: POLLHUP)
    private static let error = Int16(truncatingIfNeeded: POLLERR)
    private static let invalid = Int16(truncatingIfNeeded: POLLNVAL)

    func add(fd: Int32, interest: IOInterest, token: UInt64) throws {
        guard fd >= 0 else { throw SystemError(call: "poll add(\(fd))", errno: EBADF) }
        guard position(of: fd) == nil else { throw SystemError(call: "poll add(\(fd))", errno: EEXIST) }
        let index = Int(fd)
        if index >= positions.count {
            positions.append(contentsOf: repeatElement(-1, count: max(index + 1 - positions.count, positions.count)))
        }
        positions[index] = entries.count
        entries.append(pollfd(fd: fd, events: Self.mask(interest), revents: 0))
        tokens.append(token)
    }

    func modify(fd: Int32, interest: IOInterest, token: UInt64) throws {
        guard let position = position(of: fd) else { throw SystemError(call: "poll modify(\(fd))", errno: ENOENT) }
        entries[position].events = Self.mask(interest)
        tokens[position] = token
    }

    func remove(fd: Int32) {
        guard let position = position(of: fd) else { return }
        let last = entries.count - 1
        if position != last {
            entries[position] = entries[last]
            tokens[position] = tokens[last]
            positions[Int(entries[position].fd)] = position
        }
        entries.removeLast()
        tokens.removeLast()
        positions[Int(fd)] = -1
    }

    func wait(_ limit: WaitLimit, into ready: inout [ReadyDescriptor]) throws {
        let count = entries.count
        let timeoutMilliseconds = limit.milliseconds(now: MonotonicClock.nanoseconds())
        let found = try entries.withUnsafeMutableBufferPointer { buffer in
            try retryingOnInterrupt("poll") { poll(buffer.baseAddress, nfds_t(count), timeoutMilliseconds) }
        }
        guard found > 0 else { return }
        var closed: [Int32] = []
        var remaining = Int(found)
        for index in 0..<count where remaining > 0 {
            let revents = entries[index].revents
            guard revents != 0 else { continue }
            remaining -= 1
            if revents & Self.invalid != 0 {
                // Closed while registered: epoll forgets such a descriptor without a word,
                // and so does this backend (otherwise every later poll would return at once).
                closed.append(entries[index].fd)
                continue
            }
            ready.append(ReadyDescriptor(token: tokens[index], events: Self.events(revents)))
        }
        for fd in closed { remove(fd: fd) }
    }

    private func position(of fd: Int32) -> Int? {
        let index = Int(fd)
        guard index >= 0, index < positions.count, positions[index] >= 0 else { return nil }
        return positions[index]
    }

    private static func mask(_ interest: IOInterest) -> Int16 {
        var mask: Int16 = 0
        if interest.contains(.readable) { mask |= readable | readHangup }
        if interest.contains(.writable) { mask |= writable }
        return mask
    }

    private static func events(_ revents: Int16) -> IOEvents {
        var ready: IOEvents = []
        if revents & readable != 0 { ready.insert(.readable) }
        if revents & writable != 0 { ready.insert(.writable) }
        if revents & (hangup | readHangup) != 0 { ready.insert(.hangup) }
        if revents & error != 0 { ready.insert(.error) }
        return ready
    }
}
