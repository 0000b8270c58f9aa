import VMProtocol

/// A `daemon.monitor` opened on one connection: it sees every message in and out.
final class Monitor {
    let id: String
    let session: Session
    /// The `daemon.message` bytes before the seq.
    let prefix: [UInt8]
    /// The last seq consumed.
    var seq: Int64 = 0

    init(id: String, session: Session) {
        self.id = id
        self.session = session
        self.prefix = DaemonMessageNotification.prefix(monitor: id)
    }
}
