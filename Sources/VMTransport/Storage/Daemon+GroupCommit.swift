/// The durable-instance store's group commit, as the daemon applies it to its writes: a sync
/// of the waiting changes starts at the first flush after they were made, and each
/// connection may write only what it had queued before the last completed sync began (every
/// change its replies and notifications acknowledge was made before they were queued). The
/// loop keeps reading and serving during a sync; what it queues meanwhile waits for the next.
extension Daemon {
    /// Starts a sync of the waiting changes unless one runs, remembering how far it covers
    /// each connection's output.
    func startDurableSync() {
        if let durability { startDurableSync(durability) }
    }

    /// ``startDurableSync()`` with the store read once (the write path's).
    func startDurableSync(_ durability: DurableInstanceStore) {
        guard durability.hasPending, !durability.isSyncing else { return }
        coverInFlight.removeAll(keepingCapacity: true)
        for (key, connection) in connections where connection.pendingBytes > 0 {
            coverInFlight[key] = durableWritten[key, default: 0] + connection.pendingBytes
        }
        durability.startSync(on: loop.handle) { [weak self] in self?.durableSyncFinished() }
    }

    /// A sync completed: what it covered may be written; the next starts if changes wait.
    private func durableSyncFinished() {
        swap(&coverDurable, &coverInFlight)
        coverInFlight.removeAll(keepingCapacity: true)
        startDurableSync()
        if let durability, !durability.isHolding {
            // Nothing waits: writes are unlimited until the next change.
            coverDurable.removeAll(keepingCapacity: true)
            durableWritten.removeAll(keepingCapacity: true)
        } else {
            for key in durableWritten.keys where connections[key] == nil { durableWritten[key] = nil }
        }
        for connection in connections.values where connection.pendingBytes > 0 && !connection.isQueuedForFlush {
            queueFlush(connection)
        }
    }

    /// How many of `connection`'s queued bytes may be written now, while `durability` holds
    /// writes back (``GroupCommit/isHolding``).
    func durablyWritableBytes(_ connection: Connection) -> Int {
        let key = connection.id.rawValue
        return max(0, coverDurable[key, default: 0] - durableWritten[key, default: 0])
    }

    /// Counts bytes written while changes wait (what ``durablyWritableBytes(_:)`` subtracts).
    func recordDurableWrite(_ connection: Connection, bytes: Int) {
        durableWritten[connection.id.rawValue, default: 0] += bytes
    }
}
