import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

/// The demo index, recording each query it is asked.
private struct RecordingIndex: SearchIndex {
    let queries = QueryLog()

    func search(_ query: String) async throws -> [String] {
        queries.append(query)
        return try await InMemorySearchIndex().search(query)
    }
}

@Suite("Search: debounced typing, the newest search wins, on virtual time")
struct SearchTests {
    private func makeSearch(latencyMs: Int = 300, index: any SearchIndex = InMemorySearchIndex(), scheduler: TestScheduler) -> ViewModelHarness<Search> {
        ViewModelHarness(Search.self, args: Search.Arguments(latencyMs: latencyMs), services: index, scheduler: scheduler)
    }

    @Test("typing searches once the typing pauses for 250 ms, then results arrive after the latency")
    func typingIsDebounced() async {
        let scheduler = TestScheduler()
        let index = RecordingIndex()
        let search = makeSearch(index: index, scheduler: scheduler)
        let results = search.record(\.results)
        let isSearching = search.record(\.isSearching)
        scheduler.scheduleAt(100) { search.send(\.query, "p") }
        scheduler.scheduleAt(200) { search.send(\.query, "pe") }
        scheduler.scheduleAt(300) { search.send(\.query, "pea") }
        // Searched once, at 300 + 250; its latency ends at 850, when the index is asked.
        await search.advance(by: .milliseconds(850))
        #expect(index.queries.all == ["pea"])
        #expect(results.events == [.next(0, []), .next(850, ["peach", "pear"])])
        #expect(isSearching.events == [.next(0, false), .next(550, true), .next(850, false)])
    }

    @Test("a query typed while a search runs supersedes it: only the newest results are shown")
    func newestSearchWins() async {
        let scheduler = TestScheduler()
        let index = RecordingIndex()
        let search = makeSearch(latencyMs: 1000, index: index, scheduler: scheduler)
        let results = search.record(\.results)
        let isSearching = search.record(\.isSearching)
        scheduler.scheduleAt(100) { search.send(\.query, "berry") }
        scheduler.scheduleAt(600) { search.send(\.query, "lemon") }
        await search.advance(by: .milliseconds(1850))
        // "berry" started at 350 and was superseded at 850, before its latency ended.
        #expect(index.queries.all == ["lemon"])
        #expect(results.events == [.next(0, []), .next(1850, ["lemon"])])
        #expect(isSearching.events == [.next(0, false), .next(350, true), .next(1850, false)])
    }

    @Test("executing search directly: the first of two quick searches fails superseded, the second answers")
    func directExecutionsUseLatest() async {
        let scheduler = TestScheduler()
        let search = makeSearch(latencyMs: 100, scheduler: scheduler)
        await search.advance(by: .milliseconds(10))
        let first = search.execute(\.search, "plum")
        await search.advance(by: .milliseconds(10))
        let second = search.execute(\.search, "kiwi")
        #expect(first.error as? ActionError == .superseded)
        await search.advance(by: .milliseconds(100))
        #expect(second.values == [["kiwi"]])
        #expect(second.isCompleted)
    }

    @Test("an unchanged query after a pause is not searched again, and a blank one finds nothing")
    func unchangedAndBlankQueries() async {
        let scheduler = TestScheduler()
        let index = RecordingIndex()
        let search = makeSearch(latencyMs: 0, index: index, scheduler: scheduler)
        let results = search.record(\.results)
        search.send(\.query, "fig")
        await search.advance(by: .milliseconds(300))
        search.send(\.query, " fig ")
        await search.advance(by: .milliseconds(300))
        search.send(\.query, "  ")
        await search.advance(by: .milliseconds(300))
        #expect(index.queries.all == ["fig", ""])
        #expect(results.values == [[], ["fig"], []])
    }
}

/// Queries recorded from any thread.
final class QueryLog: Sendable {
    private let queries = Mutex<[String]>([])

    func append(_ query: String) { queries.withLock { $0.append(query) } }

    var all: [String] { queries.withLock { $0 } }
}
