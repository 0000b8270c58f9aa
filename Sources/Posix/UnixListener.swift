#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// A listening `AF_UNIX` stream socket, nonblocking and close-on-exec.
///
/// ``bind(to:backlog:)`` creates the socket file with mode 0600 from the start: the mode is
/// set with `fchmod` on the socket *before* `bind`, so there is no window in which another
/// user could connect and the process umask is never touched. Threading: accept from one
/// thread (the event loop); the object itself is Sendable only so it can be handed over.
public final class UnixListener: Sendable {
    /// The listening descriptor (register it with the loop for readability).
    public let descriptor: FileDescriptor
    /// The bound address; `nil` for an adopted descriptor whose path is unknown.
    public let address: UnixSocketAddress?
    /// Whether ``close()`` unlinks the socket file: true when we created it, false for a
    /// socket passed by systemd (it owns the path and will reuse it).
    public let removesPathOnClose: Bool

    private init(descriptor: FileDescriptor, address: UnixSocketAddress?, removesPathOnClose: Bool) {
        self.descriptor = descriptor
        self.address = address
        self.removesPathOnClose = removesPathOnClose
    }

    /// socket → fchmod 0600 → bind → listen. Does not probe or remove an existing file:
    /// run ``SocketPathGuard/prepare(_:requirePrivateDirectory:)`` first.
    public static func bind(to address: UnixSocketAddress, backlog: Int32 = 1024) throws -> UnixListener {
        let raw = try retryingOnInterrupt("socket(AF_UNIX, SOCK_STREAM)") { cposix_unix_socket(0, 1) }
        let descriptor = FileDescriptor(adopting: raw)
        if !address.isAbstract {
            try retryingOnInterrupt("fchmod(\(address.path), 0600)") { fchmod(raw, 0o600) }
        }
        let bytes = address.sunPathBytes
        try retryingOnInterrupt("bind(\(address.path))") {
            bytes.withUnsafeBufferPointer { cposix_unix_bind(raw, $0.baseAddress, $0.count) }
        }
        do {
            try retryingOnInterrupt("listen(\(address.path))") { listen(raw, backlog) }
        } catch {
            if !address.isAbstract { _ = try? FileSystem.remove(address.path) }
            throw error
        }
        return UnixListener(descriptor: descriptor, address: address, removesPathOnClose: !address.isAbstract)
    }

    /// Adopts an already listening socket (systemd socket activation): makes it nonblocking
    /// and close-on-exec; its path, if given, is reported but never unlinked.
    public static func adopt(_ descriptor: FileDescriptor, address: UnixSocketAddress? = nil) throws -> UnixListener {
        try descriptor.setNonBlocking()
        try descriptor.setCloseOnExec()
        return UnixListener(descriptor: descriptor, address: address, removesPathOnClose: false)
    }

    /// Accepts one pending connection as a nonblocking, close-on-exec descriptor, or `nil`
    /// when none is pending. A connection that was aborted before we got to it is skipped.
    /// `EMFILE`/`ENFILE` are thrown: the caller should log and back off, not spin.
    public func accept() throws -> FileDescriptor? {
        let fd = descriptor.rawValue
        // A connection reset before we accepted it (ECONNABORTED, EPROTO) is simply skipped.
        guard let client = try retryingOnInterruptUnlessWouldBlock(
            "accept4(\(name))", alsoRetrying: [ECONNABORTED, EPROTO], { cposix_accept_nonblocking(fd) }
        ) else { return nil }
        return FileDescriptor(adopting: client)
    }

    /// Stops listening; unlinks the socket file if ``removesPathOnClose``. Idempotent.
    public func close() throws {
        let wasOpen = descriptor.isOpen
        try descriptor.close()
        if wasOpen, removesPathOnClose, let address {
            try FileSystem.remove(address.path)
        }
    }

    private var name: String { address?.path ?? "fd \(descriptor.rawValue)" }
}
