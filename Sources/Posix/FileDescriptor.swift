#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix
import Synchronization

/// An owned file descriptor: closed exactly once, by ``close()`` or when the object dies.
///
/// Threading: the descriptor number is held in an atomic, so `close()` from one thread and
/// `rawValue` from another never tear; but closing while another thread still does I/O on
/// the number is a logic error (the number may be reused), as with any descriptor.
/// Reads and writes return ``ReadResult/wouldBlock`` / ``WriteResult/wouldBlock`` instead of
/// throwing on `EAGAIN`, so nonblocking callers need no error matching.
public final class FileDescriptor: Sendable, CustomStringConvertible {
    private let storage: Atomic<Int32>

    /// Takes ownership of `rawValue`: it will be closed by this object.
    public init(adopting rawValue: Int32) {
        storage = Atomic(rawValue)
    }

    deinit {
        let value = storage.load(ordering: .relaxed)
        if value >= 0 { _ = libcClose(value) }
    }

    /// The descriptor number, or -1 once closed or released.
    public var rawValue: Int32 { storage.load(ordering: .acquiring) }

    public var isOpen: Bool { rawValue >= 0 }

    public var description: String { "fd \(rawValue)" }

    /// Closes the descriptor; later calls do nothing.
    ///
    /// `close` is deliberately not retried on `EINTR`: Linux releases the number even then,
    /// and a retry could close a descriptor another thread just opened.
    public func close() throws {
        let value = storage.exchange(-1, ordering: .acquiringAndReleasing)
        guard value >= 0 else { return }
        if libcClose(value) != 0 {
            let code = cposix_errno()
            if code != EINTR { throw SystemError(call: "close(\(value))", errno: code) }
        }
    }

    /// Gives up ownership without closing; returns the number (or -1 if already closed).
    public func release() -> Int32 {
        storage.exchange(-1, ordering: .acquiringAndReleasing)
    }

    // MARK: Flags

    public func setNonBlocking(_ on: Bool = true) throws {
        let fd = rawValue
        try retryingOnInterrupt("fcntl(\(fd), O_NONBLOCK)") { cposix_set_nonblocking(fd, on ? 1 : 0) }
    }

    public func setCloseOnExec(_ on: Bool = true) throws {
        let fd = rawValue
        try retryingOnInterrupt("fcntl(\(fd), FD_CLOEXEC)") { cposix_set_cloexec(fd, on ? 1 : 0) }
    }

    public var isNonBlocking: Bool {
        get throws {
            let fd = rawValue
            return try retryingOnInterrupt("fcntl(\(fd), F_GETFL)") { cposix_get_nonblocking(fd) } == 1
        }
    }

    public var isCloseOnExec: Bool {
        get throws {
            let fd = rawValue
            return try retryingOnInterrupt("fcntl(\(fd), F_GETFD)") { cposix_get_cloexec(fd) } == 1
        }
    }

    // MARK: I/O

    /// Reads into `buffer`; `EAGAIN` is ``ReadResult/wouldBlock``, 0 bytes is ``ReadResult/endOfFile``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ReadResult {
        let fd = rawValue
        guard let count = try retryingOnInterruptUnlessWouldBlock("read(\(fd))", {
            libcRead(fd, buffer.baseAddress, buffer.count)
        }) else { return .wouldBlock }
        return count == 0 ? .endOfFile : .bytes(count)
    }

    /// Writes from `bytes` with `write(2)` (may be short); `EAGAIN` is ``WriteResult/wouldBlock``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws -> WriteResult {
        let fd = rawValue
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        guard let count = try retryingOnInterruptUnlessWouldBlock("write(\(fd))", {
            libcWrite(fd, base, bytes.count)
        }) else { return .wouldBlock }
        return .bytes(count)
    }

    /// Sends on a socket with `MSG_NOSIGNAL` (may be short): a vanished peer is an `EPIPE`
    /// error, never a SIGPIPE, even in a process that did not ignore the signal (a library
    /// client). `EAGAIN` is ``WriteResult/wouldBlock``.
    public func send(_ bytes: UnsafeRawBufferPointer) throws -> WriteResult {
        let fd = rawValue
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        guard let count = try retryingOnInterruptUnlessWouldBlock("send(\(fd))", {
            cposix_send(fd, base, bytes.count)
        }) else { return .wouldBlock }
        return .bytes(count)
    }

    /// Reads up to `maxBytes`; `[]` means end of file, `nil` means it would block.
    public func read(upTo maxBytes: Int) throws -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: max(1, maxBytes))
        let outcome = try result.withUnsafeMutableBytes { buffer in try read(into: buffer) }
        switch outcome {
        case .bytes(let count):
            result.removeSubrange(count...)
            return result
        case .endOfFile: return []
        case .wouldBlock: return nil
        }
    }

    /// Writes every byte, for blocking descriptors (files, pipes, a blocking client socket).
    /// On a nonblocking descriptor it waits for writability with `poll` between attempts.
    /// Sockets are written with `MSG_NOSIGNAL` (see ``send(_:)``).
    public func writeAll(_ bytes: some Collection<UInt8>) throws {
        let array = Array(bytes)
        var offset = 0
        var useSend = true
        while offset < array.count {
            let result: WriteResult
            do {
                result = try array.withUnsafeBytes { buffer in
                    let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                    return useSend ? try send(rest) : try write(rest)
                }
            } catch let error as SystemError where useSend && error.errno == ENOTSOCK {
                useSend = false
                continue
            }
            switch result {
            case .bytes(let count): offset += count
            case .wouldBlock: _ = try wait(for: .writable, timeout: nil)
            }
        }
    }

    /// Reads until end of file (blocking descriptors; waits with `poll` on nonblocking ones).
    public func readToEnd(chunkSize: Int = 65536) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let outcome = try chunk.withUnsafeMutableBytes { buffer in try read(into: buffer) }
            switch outcome {
            case .bytes(let count): result.append(contentsOf: chunk[..<count])
            case .endOfFile: return result
            case .wouldBlock: _ = try wait(for: .readable, timeout: nil)
            }
        }
    }

    /// Blocks the calling thread until the descriptor is ready or the timeout passes
    /// (`nil` waits forever). Returns what is ready; empty on timeout. For clients, not the loop.
    public func wait(for interest: IOInterest, timeout: Duration?) throws -> IOEvents {
        var events: Int16 = 0
        if interest.contains(.readable) { events |= Int16(POLLIN) }
        if interest.contains(.writable) { events |= Int16(POLLOUT) }
        let deadline = timeout.map { MonotonicClock.nanoseconds() &+ $0.nanosecondsClamped }
        while true {
            var entry = pollfd(fd: rawValue, events: events, revents: 0)
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let now = MonotonicClock.nanoseconds()
                let remaining = deadline > now ? deadline - now : 0
                waitMilliseconds = Int32(clamping: (remaining + 999_999) / 1_000_000)
            }
            let count = poll(&entry, 1, waitMilliseconds)
            if count < 0 {
                let code = cposix_errno()
                if code == EINTR { continue }
                throw SystemError(call: "poll(\(rawValue))", errno: code)
            }
            if count == 0 { return [] }
            var ready: IOEvents = []
            let revents = Int32(entry.revents)
            if revents & Int32(POLLIN) != 0 { ready.insert(.readable) }
            if revents & Int32(POLLOUT) != 0 { ready.insert(.writable) }
            if revents & Int32(POLLHUP) != 0 { ready.insert(.hangup) }
            if revents & Int32(POLLERR | POLLNVAL) != 0 { ready.insert(.error) }
            return ready
        }
    }

    // MARK: Opening

    /// Opens a file with `O_CLOEXEC` always added.
    public static func open(
        _ path: String, _ flags: OpenFlags, mode: UInt32 = 0o600
    ) throws -> FileDescriptor {
        let raw = try retryingOnInterrupt("open(\(path))") {
            cposix_open(path, flags.rawValue | CPOSIX_O_CLOEXEC, mode)
        }
        return FileDescriptor(adopting: raw)
    }

    /// A close-on-exec pipe.
    public static func pipe(nonBlocking: Bool = false) throws -> (read: FileDescriptor, write: FileDescriptor) {
        var readEnd: Int32 = -1
        var writeEnd: Int32 = -1
        try retryingOnInterrupt("pipe2") { cposix_pipe(&readEnd, &writeEnd, nonBlocking ? 1 : 0) }
        return (FileDescriptor(adopting: readEnd), FileDescriptor(adopting: writeEnd))
    }

    /// Standard input, output and error, not owned (never closed by these objects).
    public static var standardInput: Int32 { 0 }
    public static var standardOutput: Int32 { 1 }
    public static var standardError: Int32 { 2 }
}

extension Duration {
    /// Whole nanoseconds, clamped to 0...UInt64.max (negative durations count as zero).
    var nanosecondsClamped: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        return whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
