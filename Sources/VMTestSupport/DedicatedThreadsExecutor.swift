import Foundation
import Posix
import Synchronization

/// A task executor that runs jobs on threads of its own, outside Swift's cooperative pool
/// (OffTheCooperativePool.swift says which tests use it, and why).
///
/// Threads start when a job finds none idle, up to `maximumThreads` (then jobs queue), and
/// stay for the life of the process (a test run), waiting on a semaphore for the next job.
package final class DedicatedThreadsExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var head = 0
        var idle = 0
        var threads = 0
        /// The workers' thread ids.
        var workers: Set<UInt> = []
    }

    private let queue = Mutex(Queue())
    private let wakeups = DispatchSemaphore(value: 0)
    private let maximumThreads: Int

    /// An executor that starts at most `maximumThreads` threads.
    package init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
    }

    /// Whether the calling thread is one of this executor's.
    package var ownsCurrentThread: Bool {
        let current = PosixThread.currentID
        return queue.withLock { $0.workers.contains(current) }
    }

    /// How many threads it has started.
    package var threadCount: Int { queue.withLock { $0.threads } }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        enum Next { case wakeIdle, startThread, nothing }
        let next = queue.withLock { queue -> Next in
            queue.jobs.append(unowned)
            if queue.idle > 0 {
                queue.idle -= 1
                return .wakeIdle
            }
            guard queue.threads < maximumThreads else { return .nothing }
            queue.threads += 1
            return .startThread
        }
        switch next {
        case .wakeIdle: wakeups.signal()
        case .startThread:
            Thread.detachNewThread { [self] in work() }
        case .nothing: break
        }
    }

    /// A worker: runs queued jobs, and waits while there are none.
    private func work() {
        let current = PosixThread.currentID
        queue.withLock { _ = $0.workers.insert(current) }
        while true {
            let job = queue.withLock { queue -> UnownedJob? in
                guard queue.head < queue.jobs.count else {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.head = 0
                    queue.idle += 1
                    return nil
                }
                let job = queue.jobs[queue.head]
                queue.head += 1
                // Taken jobs are dropped in bulk, so a queue that never empties stays short.
                if queue.head >= 256, queue.head * 2 >= queue.jobs.count {
                    queue.jobs.removeFirst(queue.head)
                    queue.head = 0
                }
                return job
            }
            if let job {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else {
                // `idle` was counted under the lock; an enqueue that saw it signals, and the
                // semaphore keeps that signal even when it comes before this wait.
                wakeups.wait()
            }
        }
    }
}
