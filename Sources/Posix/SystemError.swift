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
package struct SystemError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The call and its subject as written in messages, e.g. `bind(/run/user/1000/vmd.sock)`.
    package let call: String
    /// The errno value.
    package let errno: Int32

    package init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The errno's symbolic name (`EADDRINUSE`), or `errno N` when the C library has none.
    package var errnoName: String {
        if let name = cposix_errno_name(errno) { return String(cString: name) }
        return "errno \(errno)"
    }

    /// The C library's text for the errno (`Address already in use`).
    package var reason: String {
        guard let text = strerror(errno) else { return "Unknown error \(errno)" }
        return String(cString: text)
    }

    package var description: String { "\(call): \(reason) (\(errnoName))" }

    // Common errno values, so callers outside this module can match without importing libc.
    package static let wouldBlock = EAGAIN
    package static let interrupted = EINTR
    package static let noSuchFile = ENOENT
    package static let connectionRefused = ECONNREFUSED
    package static let addressInUse = EADDRINUSE
    package static let brokenPipe = EPIPE
    package static let connectionReset = ECONNRESET
    package static let timedOut = ETIMEDOUT
    package static let tooManyOpenFiles = EMFILE
    package static let tooManyOpenFilesInSystem = ENFILE
    package static let noSuchProcess = ESRCH
    package static let permissionDenied = EACCES
    package static let notPermitted = EPERM
    package static let fileExists = EEXIST
    package static let badDescriptor = EBADF
}
