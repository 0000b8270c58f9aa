import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Exhaustive harness: every recorded event asserted, no service call left running")
struct ExhaustiveHarnessTests {
    let scheduler = TestScheduler()

    func makeFetcher(_ service: any Fetching, timeoutMs: Int? = nil) -> ViewModelHarness<Fetcher> {
        let fetcher = ViewModelHarness(Fetcher.self, args: .init(timeoutMs: timeoutMs), services: service, scheduler: scheduler)
        fetcher.exhaustivity = .on
        return fetcher
    }

    @Test("a test that asserts every event and lets every call finish passes")
    func everythingAsserted() async {
        let fetcher = makeFetcher(SleepingService(sleep: .milliseconds(300), on: scheduler.virtualClock))
        let isFetching = fetcher.record(\.isFetching)
        let fetch = fetcher.execute(\.fetch)
        await fetcher.advance(by: .milliseconds(300))
        isFetching.expect([.next(0, false), .next(0, true), .next(300, false)])
        fetch.expect(values: ["fetched"])
        await fetcher.finish()
    }

    @Test("what was not asserted, and the call still asleep, are listed in one failure")
    func unassertedIsListed() async {
        let fetcher = makeFetcher(SleepingService(sleep: .seconds(5), on: scheduler.virtualClock))
        let isFetching = fetcher.record(\.isFetching)
        fetcher.execute(\.fetch)
        await fetcher.advance(by: .milliseconds(100))
        isFetching.expect([.next(0, false), .next(0, true)])
        fetcher.execute(\.fetch)  // refused: one fetch at a time
        await withKnownIssue {
            await fetcher.finish()
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("exhaustive harness: not asserted") && text.contains("Ports.fetch:\n    error(")
                && text.contains("service calls still running") && text.contains("context.action at ViewModelKitTests/InboxFixtures.swift:")
        }
        fetcher.dispose()
    }

    @Test("expect shows both lists when the events differ, and non-exhaustive harnesses check nothing at the end")
    func expectShowsADiff() async {
        let fetcher = makeFetcher(SleepingService(sleep: .zero, on: scheduler.virtualClock))
        fetcher.exhaustivity = .off
        let isFetching = fetcher.record(\.isFetching)
        withKnownIssue {
            isFetching.expect([.next(5, false)])
        } matching: { issue in
            String(describing: issue).contains("expected: [next(false) @ 5]")
        }
        fetcher.execute(\.fetch)
        await fetcher.finish()
    }

    @Test("a fake member the test did not supply fails loudly, naming it")
    func unimplementedFailsLoudly() async {
        let fetcher = makeFetcher(Unsupplied())
        fetcher.exhaustivity = .off
        var fetch: Recording<String>?
        await withKnownIssue {
            // Inside: the call's task inherits the known-issue scope from here.
            fetch = fetcher.execute(\.fetch)
            await fetcher.settle()
        } matching: { issue in
            String(describing: issue).contains("Fetching.fetch was called, but the test did not supply it")
        }
        #expect(fetch?.error as? ActionError == .underlyingError(UnimplementedService(member: "Fetching.fetch")))
    }

    /// A fetcher whose only member the test did not supply.
    struct Unsupplied: Fetching {
        func fetch() async throws -> String { throw unimplemented("Fetching.fetch") }
    }
}
