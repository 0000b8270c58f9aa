import Dispatch

/// A ``SerialScheduler`` running its work on a serial `DispatchQueue`, for apps and tests
/// whose graph lives on that queue.
///
/// The graph's thread is the queue: subscribe, send and dispose from jobs running on it
/// (``enqueue(_:)`` gets you there from anywhere).
public final class DispatchQueueScheduler: SerialScheduler {
    /// The serial queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new serial queue called `label`.
    public convenience init(label: String) {
        self.init(queue: DispatchQueue(label: label))
    }

    public var now: SchedulerTime { .monotonicNow() }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let item = DispatchWorkItem(block: GraphConfined(action).run)
        queue.async(execute: item)
        return WorkItemDisposable(item: item)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        guard delay > .zero else { return schedule(action) }
        let item = DispatchWorkItem(block: GraphConfined(action).run)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay.totalNanoseconds)), execute: item)
        return WorkItemDisposable(item: item)
    }

    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }
}

/// Cancels a dispatch work item (thread-safe in Dispatch).
struct WorkItemDisposable: Disposable {
    let item: DispatchWorkItem

    func dispose() { item.cancel() }
}
