/// Changes that must reach stable storage before the replies that acknowledge them are
/// written: the durable-instance store (``DurableInstanceStore``). The daemon calls
/// ``commit()`` before it writes any connection's bytes.
public protocol GroupCommit: AnyObject {
    /// Makes every change so far durable (one write and one sync for all of them); does
    /// nothing when none waits.
    func commit()
}
