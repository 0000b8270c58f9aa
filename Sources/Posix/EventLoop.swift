#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// Identifies one descriptor registration with an ``EventLoop``.
///
/// The generation makes a stale token harmless: once a registration is removed, an event or a
/// `modify` meant for it never reaches a newer registration that reused the descriptor number.
public struct IORegistration: Hashable, Sendable {
    public let fd: Int32
    let generation: UInt32
}

/// A single-threaded event loop: descriptor readiness, timers, signals and jobs from other
/// threads, all delivered as callbacks on one thread.
///
/// Readiness comes from `epoll` or `poll`, chosen at creation (``EventLoopBackend``); the
/// behaviour described here is the same with either.
///
/// Threading: this type is deliberately not `Sendable`. Create it, register things and call
/// ``run()`` on one thread; every callback runs on that thread, one at a time, so callbacks
/// need no locks and may capture non-Sendable state. From other threads use ``handle``
/// (``EventLoopHandle/execute(_:)``, ``EventLoopHandle/stop()``). Readiness is
/// level-triggered: a handler that leaves bytes unread is called again.
public final class EventLoop {
    /// The Sendable entry point for other threads.
    public let handle: EventLoopHandle

    private struct Slot {
        let generation: UInt32
        /// Kept so the descriptor cannot be closed (by deinit) while still registered.
        let descriptor: FileDescriptor?
        let handler: (IOEvents) -> Void
    }

    /// The readiness backend this loop waits with.
    public let backend: EventLoopBackend
    private let poller: any EventLoopPoller
    /// Unchecked exclusivity: read on every dispatched event. Safe for the same reason as the
    /// properties below (`dispatch` copies the slot out before calling its handler, and
    /// registering or deregistering is a single assignment).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var slots: [Slot?] = []
    private var nextGeneration: UInt32 = 0
    // Unchecked exclusivity on `timers`, `deferred`, `spareDeferred` and `ready`: each loop
    // iteration touches them several times, and the runtime's dynamic access checks
    // (swift_beginAccess/endAccess) cost about as much as the work itself. It is safe because
    // the loop is confined to one thread (not Sendable), the four are private, and no access
    // to them is in progress while anything outside this type runs: `popDue` returns the
    // callback before it is called, `runDeferred` swaps the batch into a local before running
    // it, `runOnce` dispatches from a copy of `ready` after the poller (which calls nothing
    // back) has filled it, and `enqueue`/`schedule`/`cancel` are single appends or removals.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var timers = TimerQueue()
    /// A closure wrapped in a struct: an array of bare closures stores them behind a
    /// reabstraction thunk, one allocation per queued closure; a struct field stores it as is.
    private struct Work {
        let run: () -> Void
    }

    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var deferred: [Work] = []
    /// An empty array with capacity that `runDeferred` trades for the queued batch, so that
    /// queueing deferred work allocates nothing once the loop is warm.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var spareDeferred: [Work] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var ready: [ReadyDescriptor] = []
    private var signalPipe: (read: FileDescriptor, write: FileDescriptor)?
    private var signalHandlers: [Int32: () -> Void] = [:]
    private var isRunning = false

    /// A loop waiting with `backend` (by default epoll on Linux, poll elsewhere).
    /// - Throws: ``SystemError`` (`ENOSYS` for epoll where the system has none).
    public init(backend: EventLoopBackend = .platformDefault) throws {
        self.backend = backend
        poller = try backend.makePoller()
        handle = try EventLoopHandle()
        ready.reserveCapacity(256)
        _ = try addRegistration(fd: handle.wakeup.rawValue, descriptor: nil, interest: .readable) { [unowned self] _ in
            self.drainWakeup()
        }
    }

    deinit {
        for signal in signalHandlers.keys { _ = cposix_forward_signal(signal, -1) }
        _ = handle.close()
    }

    /// True on the thread running the loop (or, before `run`, the thread that created it).
    public var isInLoopThread: Bool { handle.isInLoopThread }

    /// Monotonic nanoseconds, the clock timers use.
    public var now: UInt64 { MonotonicClock.nanoseconds() }

    // MARK: Descriptors

    /// Calls `handler` on the loop thread whenever `descriptor` is ready for `interest`
    /// (hang-ups and errors are always reported). The loop keeps `descriptor` alive until
    /// ``deregister(_:)``; deregister before closing it.
    public func register(
        _ descriptor: FileDescriptor, interest: IOInterest, handler: @escaping (IOEvents) -> Void
    ) throws -> IORegistration {
        try addRegistration(fd: descriptor.rawValue, descriptor: descriptor, interest: interest, handler: handler)
    }

    /// Changes what a registration is interested in (e.g. add `.writable` while output is queued).
    public func modify(_ registration: IORegistration, interest: IOInterest) throws {
        guard isCurrent(registration) else {
            throw SystemError(call: "\(backend) modify(\(registration.fd))", errno: ENOENT)
        }
        let fd = registration.fd
        try poller.modify(fd: fd, interest: interest, token: Self.token(fd: fd, generation: registration.generation))
    }

    /// Stops delivering events for `registration` and drops its handler. A stale or repeated
    /// call does nothing; an already closed descriptor is fine.
    public func deregister(_ registration: IORegistration) {
        guard isCurrent(registration) else { return }
        let fd = registration.fd
        slots[Int(fd)] = nil
        poller.remove(fd: fd)
    }

    /// The number of live descriptor registrations (the loop's own included).
    public var registrationCount: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    // MARK: Timers

    /// Calls `callback` on the loop thread once `delay` has passed (monotonic clock).
    /// Timers due at the same time fire in the order they were scheduled.
    @discardableResult
    public func schedule(after delay: Duration, _ callback: @escaping () -> Void) -> TimerID {
        timers.schedule(at: now &+ delay.nanosecondsClamped, callback)
    }

    /// Calls `callback` once the monotonic clock reaches `deadline` (see ``MonotonicClock``).
    @discardableResult
    public func schedule(atNanoseconds deadline: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, callback)
    }

    /// Cancels a timer; returns false if it already fired or was cancelled.
    @discardableResult
    public func cancel(_ timer: TimerID) -> Bool { timers.cancel(timer) }

    /// The number of pending timers.
    public var timerCount: Int { timers.count }

    // MARK: Work

    /// Queues a job from any thread (see ``EventLoopHandle/execute(_:)``).
    @discardableResult
    public func execute(_ job: @escaping @Sendable () -> Void) -> Bool { handle.execute(job) }

    /// Runs `work` on the loop thread after the current callback and the rest of this
    /// iteration's events, before the loop waits again. Loop thread only; not Sendable.
    public func enqueue(_ work: @escaping () -> Void) { deferred.append(Work(run: work)) }

    // MARK: Signals

    /// Delivers `signal` as a callback on the loop thread instead of its default action.
    ///
    /// A C handler writes the signal number into a pipe the loop watches (the self-pipe
    /// trick), so the signal may land on any thread of the process. Dispositions are process
    /// wide: the last loop to install a handler for a signal receives it.
    public func onSignal(_ signal: UnixSignal, _ handler: @escaping () -> Void) throws {
        let pipe = try ensureSignalPipe()
        signalHandlers[signal.rawValue] = handler
        let number = signal.rawValue
        let writeFD = pipe.write.rawValue
        try retryingOnInterrupt("sigaction(\(signal))") { cposix_forward_signal(number, writeFD) }
    }

    /// Restores `signal`'s default action and forgets its handler.
    public func removeSignalHandler(_ signal: UnixSignal) throws {
        guard signalHandlers.removeValue(forKey: signal.rawValue) != nil else { return }
        let number = signal.rawValue
        try retryingOnInterrupt("sigaction(\(signal), SIG_DFL)") { cposix_forward_signal(number, -1) }
    }

    // MARK: Running

    /// Runs the loop on the calling thread until ``stop()`` (from any thread or a callback).
    /// A stop requested before `run` makes it return after one pass. Not reentrant.
    public func run() throws {
        precondition(!isRunning, "EventLoop.run() is not reentrant")
        isRunning = true
        handle.claimCurrentThread()
        defer {
            isRunning = false
            handle.clearStopRequest()
        }
        repeat {
            try runOnce(blocking: true)
        } while !handle.isStopRequested
    }

    /// Asks ``run()`` to return after the current iteration.
    public func stop() { handle.stop() }

    /// One iteration: wait (unless `blocking` is false or work is pending) for events or the
    /// next timer, dispatch events, fire due timers, run deferred work. For tests and for
    /// embedding the loop in another one.
    public func runOnce(blocking: Bool = true) throws {
        let limit = blocking && deferred.isEmpty && !handle.isStopRequested ? waitLimit() : .immediately
        // Popped rather than `removeAll(keepingCapacity:)`: usually one event, and the
        // generic `replaceSubrange` behind that costs several times more.
        while ready.popLast() != nil {}
        try poller.wait(limit, into: &ready)
        for event in ready {
            dispatch(token: event.token, events: event.events)
        }
        fireDueTimers()
        runDeferred()
    }

    // MARK: Internals

    private func addRegistration(
        fd: Int32, descriptor: FileDescriptor?, interest: IOInterest, handler: @escaping (IOEvents) -> Void
    ) throws -> IORegistration {
        guard fd >= 0 else { throw SystemError(call: "\(backend) add(\(fd))", errno: EBADF) }
        let index = Int(fd)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(nil, count: max(index + 1 - slots.count, slots.count)))
        }
        if let existing = slots[index] {
            // A slot whose descriptor was closed without deregistering is stale (epoll already
            // dropped it; poll's set still holds the number), so the number may be registered again.
            guard Self.isStale(existing, fd: fd) else {
                throw SystemError(call: "\(backend) add(\(fd))", errno: EEXIST)
            }
            slots[index] = nil
            poller.remove(fd: fd)
        }
        nextGeneration &+= 1
        let generation = nextGeneration
        try poller.add(fd: fd, interest: interest, token: Self.token(fd: fd, generation: generation))
        slots[index] = Slot(generation: generation, descriptor: descriptor, handler: handler)
        return IORegistration(fd: fd, generation: generation)
    }

    private func isCurrent(_ registration: IORegistration) -> Bool {
        let index = Int(registration.fd)
        guard index >= 0, index < slots.count, let slot = slots[index] else { return false }
        return slot.generation == registration.generation
    }

    private func dispatch(token: UInt64, events: IOEvents) {
        let fd = Int32(truncatingIfNeeded: token & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: token >> 32)
        let index = Int(fd)
        guard index >= 0, index < slots.count, let slot = slots[index], slot.generation == generation else {
            return // deregistered by an earlier callback in this batch
        }
        if Self.isStale(slot, fd: fd) {
            // Closed without deregistering, and the number already reused by a file nobody
            // registered: poll watches numbers, so stop watching this one (epoll never gets here).
            poller.remove(fd: fd)
            return
        }
        slot.handler(events)
    }

    /// The slot's descriptor was closed (or released) while registered.
    private static func isStale(_ slot: Slot, fd: Int32) -> Bool {
        slot.descriptor.map { !$0.isOpen || $0.rawValue != fd } ?? false
    }

    private func waitLimit() -> WaitLimit {
        guard let deadline = timers.nextDeadline() else { return .forever }
        return deadline > now ? .until(deadline) : .immediately
    }

    private func fireDueTimers() {
        guard let earliest = timers.earliestEntryDeadline else { return }
        let current = now
        guard earliest <= current else { return }
        let limit = timers.lastSequence
        while let callback = timers.popDue(now: current, sequenceLimit: limit) {
            callback()
        }
    }

    private func runDeferred() {
        while !deferred.isEmpty {
            // Work queued by this batch goes into `deferred` (the former spare) and runs in
            // the next round.
            // The batch is a local, so a nested `runOnce` from a work item is harmless.
            var batch: [Work] = []
            swap(&batch, &spareDeferred)
            swap(&batch, &deferred)
            for work in batch { work.run() }
            // Popping keeps the capacity and is cheaper than `removeAll(keepingCapacity:)`
            // for the one or few items of a batch.
            while batch.popLast() != nil {}
            spareDeferred = batch
        }
    }

    private func drainWakeup() {
        handle.drainWakeup()
        for job in handle.takeJobs() { job(self) }
    }

    private func ensureSignalPipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        if let signalPipe { return signalPipe }
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        _ = try register(pipe.read, interest: .readable) { [unowned self] _ in
            self.drainSignals()
        }
        signalPipe = pipe
        return pipe
    }

    private func drainSignals() {
        guard let pipe = signalPipe else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let result = try? buffer.withUnsafeMutableBytes { try pipe.read.read(into: $0) }
            guard case .bytes(let count) = result else { return }
            for byte in buffer[..<count] {
                signalHandlers[Int32(byte)]?()
            }
        }
    }

    private static func token(fd: Int32, generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }
}
