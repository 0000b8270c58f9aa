import ReactiveCore
import VMProtocol

/// What the server reports about the daemon process in `daemon.info`, and the uid it admits
/// to the same-user-only methods. The daemon fills it in once at start-up.
package struct ServerIdentity: Sendable {
    /// The daemon's own version (semantic versioning), for example `"0.1.0"`.
    package var version: String
    /// 128 random bits in lower-case hex, new at every start.
    package var bootId: String
    /// The daemon's process id.
    package var pid: Int64
    /// When the daemon started, on the server scheduler's clock (`uptimeSeconds` counts from it).
    package var startedAt: SchedulerTime
    /// The socket path served.
    package var socketPath: String
    /// What happens to a connection whose outbound buffer is full.
    package var slowClient: SlowClientMode
    /// The daemon's uid: `daemon.shutdown`, `daemon.monitor` and `daemon.unmonitor` are
    /// allowed only to peers with this uid.
    package var uid: UInt32

    package init(
        version: String, bootId: String, pid: Int64, startedAt: SchedulerTime, socketPath: String,
        slowClient: SlowClientMode = .coalesce, uid: UInt32
    ) {
        self.version = version
        self.bootId = bootId
        self.pid = pid
        self.startedAt = startedAt
        self.socketPath = socketPath
        self.slowClient = slowClient
        self.uid = uid
    }
}
