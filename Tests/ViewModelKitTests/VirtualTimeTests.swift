import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Async services on virtual time: latency and timeout on the instance's scheduler")
struct VirtualTimeTests {
    @Test("a service slower than its 1 s timeout fails at exactly 1 s of virtual time, its task cancelled, in no wall-clock seconds")
    func timeoutCancelsTheService() async throws {
        let scheduler = TestScheduler()
        // An hour on the virtual clock: it ends only if virtual time gets there.
        let service = SleepingService(sleep: .seconds(3600), on: scheduler.virtualClock)
        let fetcher = ViewModelHarness(Fetcher.self, args: .init(timeoutMs: 1000), services: service, scheduler: scheduler)
        let isFetching = fetcher.record(\.isFetching)
        let failure = fetcher.record(\.failure)
        let fetch = fetcher.execute(\.fetch)

        await fetcher.advance(by: .milliseconds(999))
        #expect(isFetching.events == [.next(0, false), .next(0, true)])
        #expect(fetch.error == nil)
        await fetcher.advance(by: .milliseconds(1))

        #expect(isFetching.events == [.next(0, false), .next(0, true), .next(1000, false)])
        #expect(fetch.error as? ActionError == .underlyingError(ViewModelTimeoutError(timeout: .seconds(1))))
        #expect(failure.events == [.next(1000, "The service did not answer within 1000 ms.")])
        // Cancelled, not finished: the service's hour-long sleep never ran to its end.
        var steps = service.steps.makeAsyncIterator()
        #expect(await steps.next() == "started")
        #expect(await steps.next() == "cancelled")
        #expect(fetcher.unfinishedCalls.isEmpty)
    }

    @Test("a 2 s latency is exact in virtual time: nothing runs before 2000 ms, the answer comes at 2000 ms")
    func latencyIsVirtual() async throws {
        let scheduler = TestScheduler()
        let service = SleepingService(sleep: .zero)
        let fetcher = ViewModelHarness(Fetcher.self, args: .init(latencyMs: 2000), services: service, scheduler: scheduler)
        let isFetching = fetcher.record(\.isFetching)
        let fetch = fetcher.execute(\.fetch)
        var beforeDue: [Bool] = []
        var startedEarly = true
        let waited = ContinuousClock().measure {
            scheduler.advance(to: 1999)
            beforeDue = isFetching.values
            startedEarly = service.calls.withLock { $0 } > 0
            scheduler.advance(to: 2000)
        }
        #expect(waited < .seconds(1))
        #expect(beforeDue == [false, true])
        #expect(!startedEarly)
        var steps = service.steps.makeAsyncIterator()
        #expect(await steps.next() == "started")
        #expect(await scheduler.waitForEnqueued())
        scheduler.drainEnqueued()
        #expect(scheduler.clock == 2000)
        #expect(fetch.values == ["fetched"])
        #expect(isFetching.values == [false, true, false])
    }

    @Test("disposing during the latency cancels the timer: the service is never called")
    func disposingDuringLatency() {
        let scheduler = TestScheduler()
        let service = SleepingService(sleep: .zero)
        let fetcher = ViewModelHarness(Fetcher.self, args: .init(latencyMs: 500, timeoutMs: 1000), services: service, scheduler: scheduler)
        let fetch = fetcher.execute(\.fetch)
        scheduler.advance(to: 499)
        fetcher.dispose()
        scheduler.advance(to: 5000)
        #expect(service.calls.withLock { $0 } == 0)
        #expect(fetch.values.isEmpty)
        #expect(fetch.error == nil)
        #expect(scheduler.pendingEnqueuedCount == 0)
    }
}
