#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// Client side of `AF_UNIX` stream sockets: connecting, and socket options for clients.
public enum UnixSocket {
    /// Connects and returns a *blocking*, close-on-exec socket (for vmctl and VMClient).
    ///
    /// `timeout` bounds the wait when the daemon's accept backlog is full (for Unix sockets
    /// `connect` otherwise succeeds or fails at once); `nil` waits as long as the kernel does.
    /// Fails with `ENOENT` (no socket file) or `ECONNREFUSED` (a file nobody listens on).
    public static func connect(to address: UnixSocketAddress, timeout: Duration? = nil) throws -> FileDescriptor {
        let raw = try retryingOnInterrupt("socket(AF_UNIX, SOCK_STREAM)") { cposix_unix_socket(0, 0) }
        let descriptor = FileDescriptor(adopting: raw)
        if let timeout {
            // SO_SNDTIMEO bounds a blocking AF_UNIX connect; it is cleared again afterwards so
            // later writes keep blocking semantics unless the caller sets its own timeouts.
            try setTimeout(descriptor, receive: false, timeout)
        }
        do {
            try performConnect(raw, address)
        } catch let error as SystemError where error.errno == EAGAIN || error.errno == EINPROGRESS {
            throw SystemError(call: "connect(\(address.path))", errno: ETIMEDOUT)
        }
        if timeout != nil { try setTimeout(descriptor, receive: false, nil) }
        return descriptor
    }

    /// Connects and returns a *nonblocking*, close-on-exec socket (for an event loop).
    /// `EAGAIN` (backlog full) is thrown like any other error: the caller may retry later.
    public static func connectNonBlocking(to address: UnixSocketAddress) throws -> FileDescriptor {
        let raw = try retryingOnInterrupt("socket(AF_UNIX, SOCK_STREAM)") { cposix_unix_socket(0, 1) }
        let descriptor = FileDescriptor(adopting: raw)
        try performConnect(raw, address)
        return descriptor
    }

    /// Sets `SO_RCVTIMEO` (receive) or `SO_SNDTIMEO`; `nil` means block forever. A blocking read
    /// that times out then reports ``ReadResult/wouldBlock``.
    public static func setTimeout(_ socket: FileDescriptor, receive: Bool, _ timeout: Duration?) throws {
        let fd = socket.rawValue
        let nanoseconds = Int64(clamping: timeout?.nanosecondsClamped ?? 0)
        try retryingOnInterrupt("setsockopt(\(fd), \(receive ? "SO_RCVTIMEO" : "SO_SNDTIMEO"))") {
            cposix_set_socket_timeout(fd, receive ? 1 : 0, max(nanoseconds, timeout == nil ? 0 : 1))
        }
    }

    /// `shutdown(SHUT_WR)`: tells the peer no more bytes follow (it reads end of file).
    public static func shutdownWriting(_ socket: FileDescriptor) throws {
        let fd = socket.rawValue
        try retryingOnInterrupt("shutdown(\(fd), SHUT_WR)") { shutdown(fd, Int32(SHUT_WR)) }
    }

    private static func performConnect(_ fd: Int32, _ address: UnixSocketAddress) throws {
        let bytes = address.sunPathBytes
        // connect must not be blindly retried after EINTR (the attempt may be in progress);
        // for AF_UNIX a retry reports EISCONN when the first attempt had in fact completed.
        do {
            try retryingOnInterrupt("connect(\(address.path))") {
                bytes.withUnsafeBufferPointer { cposix_unix_connect(fd, $0.baseAddress, $0.count) }
            }
        } catch let error as SystemError where error.errno == EISCONN {
            return
        }
    }
}
