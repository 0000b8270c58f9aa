import Posix

/// Changes that must reach stable storage before the replies that acknowledge them are
/// written: the durable-instance store (``DurableInstanceStore``). The daemon starts a sync
/// before it writes any connection's bytes and holds back each connection's bytes queued
/// after the last completed sync began (Daemon+GroupCommit.swift).
package protocol GroupCommit: AnyObject {
    /// Whether changes wait for a sync.
    var hasPending: Bool { get }
    /// Whether a sync runs.
    var isSyncing: Bool { get }
    /// Whether changes wait for a sync or one runs (``hasPending`` or ``isSyncing``), kept
    /// as one stored flag: the daemon reads it before every write.
    var isHolding: Bool { get }
    /// Called on the loop thread when a change starts waiting (the daemon then starts a sync
    /// at the end of the turn, for changes that cause no reply).
    var onPending: (() -> Void)? { get set }
    /// Hands every waiting change to one sync off the loop thread; `completion` runs on the
    /// loop thread (through `handle`) when it is done.
    func startSync(on handle: EventLoopHandle, completion: @escaping () -> Void)
    /// Waits for a running sync and makes what waits durable, on this thread.
    func drain()
}
