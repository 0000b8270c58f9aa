import ReactiveCore
import Synchronization

/// A virtual-time ``SerialScheduler`` for marble tests.
///
/// Time only moves when the test says so (``start()``, ``advance(to:)``, ``advance(by:)``):
/// scheduled actions then run in time order (FIFO among equal times), and the clock jumps to
/// each action's time. One tick is `resolution` (a millisecond by default), so a
/// `debounce(.milliseconds(300), …)` waits 300 ticks.
///
/// Like the daemon's loop it accepts jobs from any thread through ``enqueue(_:)``: they wait
/// in an inbox and run, in arrival order at the current virtual time, when the test advances
/// or calls ``drainEnqueued()``. ``waitForEnqueued(count:timeout:)`` lets an async test wait,
/// with a deadline, until async work has posted its results.
///
/// Everything except ``enqueue(_:)``, ``pendingEnqueuedCount`` and ``waitForEnqueued(count:timeout:)``
/// belongs to the test's own thread or task, like the graph it drives.
public final class TestScheduler: SerialScheduler, @unchecked Sendable {
    // @unchecked Sendable, and why it is safe: the virtual clock and the action queue are
    // only touched by the test's own thread/task (the graph's thread, by ReactiveCore's
    // contract: `schedule`, `advance`, `start` are never called from elsewhere). The only
    // state shared across threads is `inbox`, which lives in a `Mutex`.

    private struct ScheduledItem {
        let time: TestTime
        let order: Int
        let action: () -> Void
        let cancellation: BooleanDisposable
    }

    private struct Inbox: ~Copyable {
        var jobs: [@Sendable () -> Void] = []
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiterID = 0
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
    }

    /// The length of one tick.
    public let resolution: Duration
    /// Whether an action scheduled for the current time (or the past) runs one tick later,
    /// as RxTest's scheduler does by default (its `simulateProcessingDelay`); off by default
    /// here, where it runs at the current tick. Turn it on to port RxTest expectations as
    /// they are.
    public let simulatesProcessingDelay: Bool
    /// The current virtual time, in ticks.
    public private(set) var clock: TestTime {
        didSet { sharedClock.store(clock, ordering: .releasing) }
    }
    /// ``clock`` for other threads (``VirtualClock/now``).
    private let sharedClock: Atomic<TestTime>
    /// Called before virtual time moves forward, with the time it moves to (a harness checks
    /// that no service call is still running in real time; see ViewModelTesting).
    package var willMoveClock: ((TestTime) -> Void)?
    private var items: [ScheduledItem] = []
    private var nextOrder = 0
    private var isStopped = false
    private let inbox = Mutex(Inbox())

    /// A scheduler at `initialClock` ticks, one tick lasting `resolution`; with
    /// `simulatesProcessingDelay`, work scheduled for now runs one tick later (as in RxTest).
    public init(initialClock: TestTime = 0, resolution: Duration = .milliseconds(1), simulatesProcessingDelay: Bool = false) {
        self.clock = initialClock
        self.sharedClock = Atomic(initialClock)
        self.resolution = resolution
        self.simulatesProcessingDelay = simulatesProcessingDelay
    }

    /// ``clock``, readable from any thread.
    var publishedClock: TestTime { sharedClock.load(ordering: .acquiring) }

    // MARK: Scheduler

    public var now: SchedulerTime {
        SchedulerTime(nanoseconds: Int64(clock) &* resolution.totalNanoseconds)
    }

    /// Schedules `action` at the current virtual time; it runs when the test next advances.
    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        scheduleAt(clock, action: action)
    }

    /// Schedules `action` `delay` later, rounded up to whole ticks.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        scheduleAt(clock + ticks(delay), action: action)
    }

    /// Schedules `action` at absolute virtual `time` (a past time means "now", or the next
    /// tick with ``simulatesProcessingDelay``).
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> any Disposable {
        insert(at: time > clock ? time : clock + (simulatesProcessingDelay ? 1 : 0), action: action)
    }

    /// Queues `action` at `due` (not before the clock).
    private func insert(at due: TestTime, action: @escaping () -> Void) -> any Disposable {
        let cancellation = BooleanDisposable()
        let item = ScheduledItem(time: max(due, clock), order: nextOrder, action: action, cancellation: cancellation)
        nextOrder += 1
        // Binary search for the first item later than this one: FIFO among equal times.
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].time <= item.time { low = middle + 1 } else { high = middle }
        }
        items.insert(item, at: low)
        return cancellation
    }

    /// The number of whole ticks covering `delay` (at least 0).
    public func ticks(_ delay: Duration) -> TestTime {
        let nanos = delay.totalNanoseconds
        let tick = max(1, resolution.totalNanoseconds)
        guard nanos > 0 else { return 0 }
        return TestTime((nanos + tick - 1) / tick)
    }

    // MARK: Running virtual time

    /// Runs every scheduled action until nothing is left (or ``stop()`` is called), moving
    /// the clock to each action's time.
    public func start() {
        isStopped = false
        while !isStopped, runNext(upTo: .max) {}
    }

    /// Runs every action scheduled up to and including `time`, then sets the clock to `time`
    /// (if it is later).
    public func advance(to time: TestTime) {
        isStopped = false
        while !isStopped, runNext(upTo: time) {}
        if time > clock {
            willMoveClock?(time)
            clock = time
        }
    }

    /// Advances the clock by `delay` (see ``advance(to:)``).
    public func advance(by delay: Duration) {
        advance(to: clock + ticks(delay))
    }

    /// Runs what is due now, including enqueued cross-thread jobs, without moving the clock.
    public func advance() {
        advance(to: clock)
    }

    /// The time of the earliest scheduled action, if any (enqueued jobs not counted).
    package var nextScheduledTime: TestTime? { items.first?.time }

    /// Stops ``start()`` or ``advance(to:)`` after the current action.
    public func stop() {
        isStopped = true
    }

    /// Moves enqueued jobs into the queue at the current time, then runs the earliest action
    /// due by `limit`; `false` when there was none.
    private func runNext(upTo limit: TestTime) -> Bool {
        moveInboxToQueue()
        guard let first = items.first, first.time <= limit else { return false }
        items.removeFirst()
        if first.cancellation.isDisposed { return true }
        if first.time > clock {
            willMoveClock?(first.time)
            clock = first.time
        }
        first.cancellation.dispose()
        first.action()
        return true
    }

    // MARK: Cross-thread jobs

    /// Queues `job` from any thread; it runs at the current virtual time when the test next
    /// advances or drains.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        let ready = inbox.withLock { inbox -> [CheckedContinuation<Bool, Never>] in
            inbox.jobs.append(job)
            let count = inbox.jobs.count
            let satisfied = inbox.waiters.filter { $0.count <= count }
            inbox.waiters.removeAll { $0.count <= count }
            return satisfied.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// The number of jobs enqueued from any thread that have not run yet.
    public var pendingEnqueuedCount: Int {
        inbox.withLock { $0.jobs.count }
    }

    /// Runs the enqueued jobs now, in arrival order, and whatever they schedule for the
    /// current time; the clock does not move.
    public func drainEnqueued() {
        advance()
    }

    /// Waits until at least `count` enqueued jobs are pending (not yet run), or `timeout`
    /// passed; returns whether they arrived. Never sleeps: it resumes when a job arrives.
    /// The default timeout is long because the jobs usually come from `Task`s, which wait
    /// for a thread of the cooperative pool when blocking tests in the same process hold it.
    public func waitForEnqueued(count: Int = 1, timeout: Duration = .seconds(30)) async -> Bool {
        let id = inbox.withLock { inbox -> Int in
            inbox.nextWaiterID += 1
            return inbox.nextWaiterID
        }
        let timer = Task {
            // Cancelled (the jobs arrived first): nothing to time out.
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.resumeWaiter(id: id, returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate = inbox.withLock { inbox -> Bool? in
                if inbox.jobs.count >= count { return true }
                if inbox.expired.remove(id) != nil { return false }
                inbox.waiters.append((id, count, continuation))
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func resumeWaiter(id: Int, returning result: Bool) {
        let waiter = inbox.withLock { inbox -> CheckedContinuation<Bool, Never>? in
            guard let index = inbox.waiters.firstIndex(where: { $0.id == id }) else {
                inbox.expired.insert(id)
                return nil
            }
            return inbox.waiters.remove(at: index).continuation
        }
        waiter?.resume(returning: result)
    }

    private func moveInboxToQueue() {
        let jobs = inbox.withLock { inbox -> [@Sendable () -> Void] in
            let jobs = inbox.jobs
            inbox.jobs = []
            return jobs
        }
        // At the current tick even with `simulatesProcessingDelay`: draining runs them now.
        for job in jobs { _ = insert(at: clock, action: job) }
    }

    // MARK: Marble helpers

    /// A hot observable sending `events` at their absolute times.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(scheduler: self, events: events, isHot: true)
    }

    /// A cold observable sending `events` to each subscriber, relative to its subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(scheduler: self, events: events, isHot: false)
    }

    /// An observer recording what it receives, with times.
    public func createObserver<Element>(_ type: Element.Type = Element.self) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// The classic marble run: calls `create` at `created`, subscribes a recording observer
    /// at `subscribed`, disposes at `disposed`, runs the whole schedule, returns the observer.
    public func start<Element>(
        created: TestTime = 100,
        subscribed: TestTime = 200,
        disposed: TestTime = 1000,
        _ create: @escaping () -> Observable<Element>
    ) -> TestableObserver<Element> {
        let observer = createObserver(Element.self)
        var source: Observable<Element>?
        var subscription: (any Disposable)?
        scheduleAt(created) { source = create() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) { subscription?.dispose() }
        start()
        return observer
    }
}
