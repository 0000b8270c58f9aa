import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Settling async service calls: the harness runs virtual time only when every call waits for it")
struct SettleTests {
    let scheduler = TestScheduler()

    func makeFetcher(_ service: SleepingService, timeoutMs: Int? = nil) -> ViewModelHarness<Fetcher> {
        ViewModelHarness(Fetcher.self, args: .init(timeoutMs: timeoutMs), services: service, scheduler: scheduler)
    }

    @Test("a fake sleeping 300 ms on the virtual clock answers at exactly 300")
    func answersAtItsVirtualTime() async {
        let fetcher = makeFetcher(SleepingService(sleep: .milliseconds(300), on: scheduler.virtualClock), timeoutMs: 1000)
        let fetch = fetcher.execute(\.fetch)
        await fetcher.advance(by: .milliseconds(299))
        #expect(fetch.events.isEmpty)
        #expect(fetcher.unfinishedCalls.count == 1, "asleep on the virtual clock")
        await fetcher.advance(by: .milliseconds(1))
        #expect(fetch.events == [.next(300, "fetched"), .completed(300)])
        #expect(fetcher.unfinishedCalls.isEmpty)
    }

    @Test("context.clock is the harness's virtual clock")
    func contextClockIsVirtual() async {
        let fetcher = makeFetcher(SleepingService(sleep: .zero))
        scheduler.advance(to: 1234)
        #expect((fetcher.clock as? VirtualClock)?.now == .init(offset: .milliseconds(1234)))
    }

    @Test("the RxTest habit, execute then scheduler.start(), with a service still running says what to use instead of timing out silently")
    func synchronousStartSaysWhatToUse() {
        let fetcher = makeFetcher(SleepingService(sleep: .seconds(3600)), timeoutMs: 10_000)
        let fetch = fetcher.execute(\.fetch)
        withKnownIssue {
            scheduler.start()
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("virtual time moved to 10000 while service calls were still running in real time: context.action at")
                && text.contains("Use `await harness.settle()` and `await harness.advance(by:)`")
        }
        #expect(fetch.error as? ActionError == .underlyingError(ViewModelTimeoutError(timeout: .seconds(10))))
        fetcher.dispose()
    }

    @Test("settle fails, naming the call, when a service waits on real time instead of the virtual clock")
    func settleNamesAStuckCall() async {
        let fetcher = makeFetcher(SleepingService(sleep: .seconds(3600)))
        fetcher.grace = .milliseconds(200)
        fetcher.execute(\.fetch)
        await withKnownIssue {
            await fetcher.settle()
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("still running") && text.contains("context.action at ViewModelKitTests/InboxFixtures.swift:")
        }
        fetcher.dispose()
        #expect(fetcher.unfinishedCalls.isEmpty, "disposing cancels the call")
    }

    @Test("the synchronous scheduler says what to use when a service still runs as virtual time moves")
    func synchronousAdvanceSaysWhatToUse() async {
        let fetcher = makeFetcher(SleepingService(sleep: .seconds(3600)), timeoutMs: 1000)
        let fetch = fetcher.execute(\.fetch)
        withKnownIssue {
            scheduler.advance(by: .seconds(2))
        } matching: { issue in
            String(describing: issue).contains("Use `await harness.settle()` and `await harness.advance(by:)`")
        }
        #expect(fetch.error as? ActionError == .underlyingError(ViewModelTimeoutError(timeout: .seconds(1))))
    }
}
