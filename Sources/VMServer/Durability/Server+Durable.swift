extension Server {
    /// Recreates the durable instances the store kept (same ids, types, args, saved values and
    /// parents), before the daemon answers its first request. Returns how many came back;
    /// what could not is set aside by the store and logged.
    @discardableResult
    package func restoreDurableInstances() -> Int {
        durability?.restore(into: host) ?? 0
    }
}
