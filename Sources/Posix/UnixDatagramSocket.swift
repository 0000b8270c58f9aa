#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// A bound `AF_UNIX` datagram socket that receives messages, e.g. a stand-in for systemd's
/// `NOTIFY_SOCKET` in tests. Blocking and close-on-exec; use ``FileDescriptor/wait(for:timeout:)``
/// on ``descriptor`` to bound a wait.
public final class UnixDatagramSocket: Sendable {
    public let descriptor: FileDescriptor
    public let address: UnixSocketAddress

    private init(descriptor: FileDescriptor, address: UnixSocketAddress) {
        self.descriptor = descriptor
        self.address = address
    }

    /// Binds a datagram socket at `address` (mode 0600 for a filesystem path).
    public static func bind(to address: UnixSocketAddress) throws -> UnixDatagramSocket {
        let raw = try retryingOnInterrupt("socket(AF_UNIX, SOCK_DGRAM)") { cposix_unix_socket(1, 0) }
        let descriptor = FileDescriptor(adopting: raw)
        if !address.isAbstract {
            try retryingOnInterrupt("fchmod(\(address.path), 0600)") { fchmod(raw, 0o600) }
        }
        let bytes = address.sunPathBytes
        try retryingOnInterrupt("bind(\(address.path))") {
            bytes.withUnsafeBufferPointer { cposix_unix_bind(raw, $0.baseAddress, $0.count) }
        }
        return UnixDatagramSocket(descriptor: descriptor, address: address)
    }

    /// Receives one datagram, waiting at most `timeout`; `nil` if none arrived in time.
    public func receive(maxBytes: Int = 4096, timeout: Duration?) throws -> [UInt8]? {
        guard try descriptor.wait(for: .readable, timeout: timeout).contains(.readable) else { return nil }
        return try descriptor.read(upTo: maxBytes)
    }

    /// Closes the socket and unlinks its file (filesystem addresses only).
    public func close() throws {
        let wasOpen = descriptor.isOpen
        try descriptor.close()
        if wasOpen, !address.isAbstract { try FileSystem.remove(address.path) }
    }
}
