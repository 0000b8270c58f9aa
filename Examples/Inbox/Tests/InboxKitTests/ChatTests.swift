import InboxKit
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Chat: a search that follows the query and a send with a timeout, on virtual time")
struct ChatTests {
    let scheduler = TestScheduler()

    func makeChat(_ chat: FakeChat) -> ViewModelHarness<Chat> {
        ViewModelHarness(Chat.self, args: .init(), services: chat, scheduler: scheduler)
    }

    @Test("results answer the latest query when its search answers; the superseded search is cancelled")
    func searchFollowsTheQuery() async {
        let server = FakeChat(clock: scheduler.virtualClock, searchLatency: .milliseconds(300))
        let chat = makeChat(server)
        let results = chat.record(\.results)

        chat.send(\.query, "sw")
        await chat.advance(by: .milliseconds(100))
        chat.send(\.query, "swift")
        await chat.advance(by: .milliseconds(400))

        #expect(results.events == [.next(0, []), .next(400, ["swift is fast"])])
        #expect(Set(server.log.entries) == ["search sw", "cancelled sw", "search swift"])
    }

    @Test("a send without an answer fails at exactly its timeout and cancels the call; nothing else happens")
    func sendTimesOut() async {
        let server = FakeChat(clock: scheduler.virtualClock, sendLatency: .seconds(5))
        let chat = makeChat(server)
        chat.exhaustivity = .on
        let failures = chat.record(\.sendFailure)
        let sending = chat.record(\.isSending)

        let sent = chat.execute(\.send, "hi")
        await chat.advance(by: .seconds(2))

        failures.expect([.next(1000, "The chat server did not answer in time.")])
        sending.expect([.next(0, false), .next(0, true), .next(1000, false)])
        sent.expect([.error(1000, ActionError.underlyingError(ViewModelTimeoutError(timeout: .seconds(1))))])
        #expect(server.log.entries == ["send hi", "cancelled hi"])
        await chat.finish()
    }

    @Test("a server answering at once is answered, not timed out")
    func sendAnsweredAtOnce() async {
        let chat = makeChat(FakeChat(clock: scheduler.virtualClock))
        let sent = chat.execute(\.send, "hi")
        await chat.settle()
        #expect(sent.events == [.next(0, "id-hi"), .completed(0)])
    }

    @Test("a failing server says why, in words")
    func sendFails() async {
        let chat = makeChat(FakeChat(clock: scheduler.virtualClock, failure: ActionFailure("The chat server is down.")))
        let failures = chat.record(\.sendFailure)
        chat.execute(\.send, "hi")
        await chat.settle()
        #expect(failures.events == [.next(0, "The chat server is down.")])
    }
}
