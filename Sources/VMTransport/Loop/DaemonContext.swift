/// What a connection handler (the server) may know of, and ask of, the daemon serving it.
///
/// Made by the daemon before the handler exists (the handler's initializer takes it), used on
/// the loop thread only.
package final class DaemonContext {
    /// The loop as the reactive core's scheduler: the server's graph runs on it.
    package let scheduler: LoopScheduler
    /// The daemon's configuration (limits, slow-client policy, version).
    package let configuration: DaemonConfiguration
    /// The socket path served, for `daemon.info`.
    package let socketPath: String
    /// The daemon's log, for events only the handler sees (overflow, for example).
    package let log: DaemonLog
    private weak var daemon: Daemon?

    init(daemon: Daemon, scheduler: LoopScheduler) {
        self.daemon = daemon
        self.scheduler = scheduler
        self.configuration = daemon.configuration
        self.socketPath = daemon.socketPath
        self.log = daemon.log
    }

    /// Open connections, for `daemon.info`.
    package var connectionCount: Int { daemon?.connectionCount ?? 0 }

    /// Has the daemon write each reply and notification only once `store` has synced the
    /// changes made before it was queued (every write goes through this), so what a client
    /// is told about is on disk first (Daemon+GroupCommit.swift).
    package func commitBeforeWriting(_ store: DurableInstanceStore) {
        guard let daemon else { return }
        daemon.durability = store
        store.onPending = { [weak daemon] in daemon?.loop.enqueue { [weak daemon] in daemon?.startDurableSync() } }
    }

    /// Asks for a graceful stop (`daemon.shutdown`). It begins after the current callback, so
    /// the reply that caused it is queued first and flushed like everything else.
    package func requestShutdown(reason: String = "daemon.shutdown") {
        guard let daemon else { return }
        daemon.loop.enqueue { [weak daemon] in daemon?.shutdown(reason: reason) }
    }
}
