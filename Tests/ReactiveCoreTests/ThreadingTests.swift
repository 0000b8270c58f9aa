import Dispatch
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing

@Suite("Threading contract")
struct ThreadingTests {
    /// Collects what jobs report, from whatever thread they run on.
    final class Trace: Sendable {
        private let entries = Mutex<[(producer: Int, sequence: Int)]>([])

        func record(_ producer: Int, _ sequence: Int) {
            entries.withLock { $0.append((producer, sequence)) }
        }

        var all: [(producer: Int, sequence: Int)] { entries.withLock { $0 } }
    }

    static let producers = 4
    static let jobsPerProducer = 500

    /// Whether each producer's jobs ran in the order that producer enqueued them.
    static func isOrderedPerProducer(_ entries: [(producer: Int, sequence: Int)]) -> Bool {
        var next = Array(repeating: 0, count: producers)
        for entry in entries {
            guard entry.sequence == next[entry.producer] else { return false }
            next[entry.producer] += 1
        }
        return next.allSatisfy { $0 == jobsPerProducer }
    }

    @Test("jobs enqueued on a test scheduler from other threads wait, then run in per-thread order")
    func testSchedulerCrossThreadEnqueue() async {
        let scheduler = TestScheduler()
        let trace = Trace()
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<Self.producers {
                group.addTask {
                    for sequence in 0..<Self.jobsPerProducer {
                        scheduler.enqueue { trace.record(producer, sequence) }
                    }
                }
            }
        }
        let total = Self.producers * Self.jobsPerProducer
        #expect(await scheduler.waitForEnqueued(count: total, timeout: .seconds(10)))
        #expect(trace.all.isEmpty)
        #expect(scheduler.pendingEnqueuedCount == total)
        scheduler.drainEnqueued()
        #expect(scheduler.pendingEnqueuedCount == 0)
        #expect(Self.isOrderedPerProducer(trace.all))
    }

    @Test("waiting for enqueued jobs gives up at the deadline")
    func waitTimesOut() async {
        let scheduler = TestScheduler()
        #expect(await scheduler.waitForEnqueued(count: 1, timeout: .milliseconds(20)) == false)
    }

    @Test("a job enqueued from another thread wakes a waiting test")
    func waitWakesOnArrival() async {
        let scheduler = TestScheduler()
        Task.detached { scheduler.enqueue {} }
        #expect(await scheduler.waitForEnqueued(count: 1, timeout: .seconds(10)))
    }

    @Test("a dispatch queue scheduler runs cross-thread jobs serially in per-thread order")
    func dispatchSchedulerCrossThreadEnqueue() async {
        let scheduler = DispatchQueueScheduler(label: "reactive-tests")
        let trace = Trace()
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<Self.producers {
                group.addTask {
                    for sequence in 0..<Self.jobsPerProducer {
                        scheduler.enqueue { trace.record(producer, sequence) }
                    }
                }
            }
        }
        // Enqueued after every producer finished, so it runs last on the serial queue.
        await withCheckedContinuation { continuation in
            scheduler.enqueue { continuation.resume() }
        }
        #expect(Self.isOrderedPerProducer(trace.all))
    }

    @Test("a graph living on a dispatch queue scheduler delivers observe(on:) events in order")
    func dispatchSchedulerDrivesAGraph() async {
        let scheduler = DispatchQueueScheduler(label: "reactive-graph")
        let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            scheduler.enqueue {
                // On the queue: this is the graph's thread.
                let subject = PublishSubject<Int>()
                var received: [Int] = []
                var subscription: (any Disposable)?
                subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
                    received.append(value)
                    if value == 3 {
                        subscription?.dispose()
                        continuation.resume(returning: received)
                    }
                })
                for value in 1...3 { subject.onNext(value) }
            }
        }
        #expect(values == [1, 2, 3])
    }

    @Test("fromAsync delivers its result through enqueue, never during subscribe")
    func fromAsyncDelivers() async {
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(String.self)
        let subscription = Observable.fromAsync(scheduler: scheduler) { "done" }.subscribe(observer)
        #expect(observer.events.isEmpty)
        #expect(await scheduler.waitForEnqueued())
        scheduler.drainEnqueued()
        #expect(observer.events == [.next(0, "done"), .completed(0)])
        subscription.dispose()
    }

    @Test("disposing fromAsync cancels its task and drops the result")
    func fromAsyncCancels() async {
        let scheduler = TestScheduler()
        let cancelled = Flag()
        let observer = scheduler.createObserver(Int.self)
        let subscription = Observable<Int>.fromAsync(scheduler: scheduler) {
            await withTaskCancellationHandler {
                try? await Task.sleep(for: .seconds(60))
            } onCancel: {
                cancelled.set()
            }
            return 1
        }.subscribe(observer)
        subscription.dispose()
        #expect(await scheduler.waitForEnqueued())
        scheduler.drainEnqueued()
        #expect(cancelled.isSet)
        #expect(observer.events.isEmpty)
    }

    @Test("values turns a sequence into an AsyncSequence that ends with it")
    func valuesBridge() async throws {
        let subject = ReplaySubject<Int>.createUnbounded()
        let stream = subject.values
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        var collected: [Int] = []
        for try await value in stream { collected.append(value) }
        #expect(collected == [1, 2])
    }

    @Test("values rethrows the sequence's error")
    func valuesThrows() async {
        let stream = Observable<Int>.error(TestError()).values
        await #expect(throws: TestError.self) {
            for try await _ in stream {}
        }
    }

    @Test("cancelling a values iteration disposes the subscription through the scheduler")
    func valuesCancellationDisposes() async {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let stream = subject.values(disposingOn: scheduler)
        #expect(subject.hasObservers)
        let consumer = Task {
            for try await _ in stream {}
        }
        consumer.cancel()
        _ = await consumer.result
        #expect(await scheduler.waitForEnqueued())
        scheduler.drainEnqueued()
        #expect(!subject.hasObservers)
    }
}
