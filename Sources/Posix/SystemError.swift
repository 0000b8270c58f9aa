#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// A failed system call: which call, on what, and the errno it returned.
///
/// Every syscall in this module goes through one chokepoint (``retryingOnInterrupt(_:_:)``)
/// that produces this type, so a log line always reads the same way:
/// `bind(/run/user/1000/vmd.sock): Address already in use (EADDRINUSE)`.
public struct SystemError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The call and its subject as written in messages, e.g. `bind(/run/user/1000/vmd.sock)`.
    public let call: String
    /// The errno value.
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The errno's symbolic name (`EADDRINUSE`), or `errno N` when the C library has none.
    public var errnoName: String {
        if let name = cposix_errno_name(errno) { return String(cString: name) }
        return "errno \(errno)"
    }

    /// The C library's text for the errno (`Address already in use`).
    public var reason: String {
        guard let text = strerror(errno) else { return "Unknown error \(errno)" }
        return String(cString: text)
    }

    public var description: String { "\(call): \(reason) (\(errnoName))" }

    // Common errno values, so callers outside this module can match without importing libc.
    public static let wouldBlock = EAGAIN
    public static let interrupted = EINTR
    public static let noSuchFile = ENOENT
    public static let connectionRefused = ECONNREFUSED
    public static let addressInUse = EADDRINUSE
    public static let brokenPipe = EPIPE
    public static let connectionReset = ECONNRESET
    public static let timedOut = ETIMEDOUT
    public static let tooManyOpenFiles = EMFILE
    public static let tooManyOpenFilesInSystem = ENFILE
    public static let noSuchProcess = ESRCH
    public static let permissionDenied = EACCES
    public static let notPermitted = EPERM
    public static let fileExists = EEXIST
    public static let badDescriptor = EBADF
}
