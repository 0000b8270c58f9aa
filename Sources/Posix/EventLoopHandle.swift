import CPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread-safe face of an ``EventLoop``: hand work to the loop from any thread, ask
/// whether you are on it, or stop it.
///
/// Jobs go into a `Mutex`-protected queue; only the job that finds the queue idle writes the
/// loop's wakeup descriptor, so a burst of jobs from many threads costs the loop one wakeup. Jobs run
/// on the loop thread in the order they were queued, between I/O callbacks.
public final class EventLoopHandle: Sendable {
    typealias Job = @Sendable (EventLoop) -> Void

    private struct Queue {
        var jobs: [Job] = []
        /// A wakeup has been written and not yet consumed by the loop.
        var wakeupPending = false
        /// The loop is gone: later jobs are refused.
        var closed = false
    }

    private let queue = Mutex(Queue())
    private let stopRequested = Atomic<Bool>(false)
    private let loopThread: Atomic<UInt>
    /// What the loop watches for wakeups: an eventfd on Linux, a pipe's read end elsewhere.
    /// Owned here so a late `execute` never writes to a reused number.
    let wakeup: FileDescriptor
    /// Where wakeups are written: the same eventfd on Linux, the pipe's write end elsewhere.
    private let wakeupWriter: FileDescriptor

    init() throws {
        #if os(Linux)
        wakeup = FileDescriptor(adopting: try retryingOnInterrupt("eventfd") { cposix_eventfd() })
        wakeupWriter = wakeup
        #else
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        wakeup = pipe.read
        wakeupWriter = pipe.write
        #endif
        loopThread = Atomic(PosixThread.currentID)
    }

    /// Queues `job` to run on the loop thread. Returns false (and drops the job) if the loop
    /// has been destroyed.
    @discardableResult
    public func execute(_ job: @escaping @Sendable () -> Void) -> Bool {
        submit { _ in job() }
    }

    /// Like ``execute(_:)`` but the job receives the loop, so code holding only this Sendable
    /// handle can register descriptors or timers from inside the job.
    @discardableResult
    public func submit(_ job: @escaping @Sendable (EventLoop) -> Void) -> Bool {
        let mustWake: Bool? = queue.withLock { state in
            guard !state.closed else { return nil }
            state.jobs.append(job)
            defer { state.wakeupPending = true }
            return !state.wakeupPending
        }
        guard let mustWake else { return false }
        if mustWake { wake() }
        return true
    }

    /// Asks the loop to return from ``EventLoop/run()`` after the current iteration.
    /// Callable from any thread, before or during `run`.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    /// True when called on the thread that runs (or created and will run) the loop.
    public var isInLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == PosixThread.currentID
    }

    // MARK: Loop side

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    func clearStopRequest() { stopRequested.store(false, ordering: .releasing) }

    func claimCurrentThread() { loopThread.store(PosixThread.currentID, ordering: .releasing) }

    /// Takes every queued job (and re-arms the wakeup) in one lock acquisition.
    func takeJobs() -> [Job] {
        queue.withLock { state in
            state.wakeupPending = false
            var taken: [Job] = []
            swap(&taken, &state.jobs)
            return taken
        }
    }

    /// Refuses further jobs and returns those never run.
    func close() -> [Job] {
        queue.withLock { state in
            state.closed = true
            var taken: [Job] = []
            swap(&taken, &state.jobs)
            return taken
        }
    }

    private func wake() {
        var one: UInt64 = 1
        let fd = wakeupWriter.rawValue
        // EAGAIN means the counter is saturated (or the pipe full): a wakeup is pending anyway.
        _ = try? retryingOnInterruptUnlessWouldBlock("write(wakeup)") {
            withUnsafeBytes(of: &one) { libcWrite(fd, $0.baseAddress, 8) }
        }
    }

    /// Consumes pending wakeups (loop side): one read empties an eventfd; a pipe is read
    /// until it is empty.
    func drainWakeup() {
        var counter: UInt64 = 0
        let fd = wakeup.rawValue
        #if os(Linux)
        _ = try? retryingOnInterruptUnlessWouldBlock("read(eventfd)") {
            withUnsafeMutableBytes(of: &counter) { libcRead(fd, $0.baseAddress, 8) }
        }
        #else
        // Each wakeup is one 8-byte word in the pipe; read until it is empty.
        while true {
            let count = try? retryingOnInterruptUnlessWouldBlock("read(wakeup pipe)") {
                withUnsafeMutableBytes(of: &counter) { libcRead(fd, $0.baseAddress, 8) }
            }
            guard let count, count > 0 else { return }
        }
        #endif
    }
}
