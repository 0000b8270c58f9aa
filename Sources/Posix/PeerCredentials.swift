import CPosix

/// Who is on the other end of a connected Unix socket, as the kernel recorded it at
/// `connect` time (`SO_PEERCRED`): it cannot be forged by the peer.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer of `socket`.
    public init(of socket: FileDescriptor) throws {
        let fd = socket.rawValue
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        try retryingOnInterrupt("getsockopt(\(fd), SO_PEERCRED)") { cposix_peer_credentials(fd, &pid, &uid, &gid) }
        self.init(pid: pid, uid: uid, gid: gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
