import InboxKit
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Inbox: syncs that succeed, fail or time out, and rows that report back, on virtual time")
struct InboxTests {
    private func makeInbox(
        _ mail: any MailService, timeoutSeconds: Int = 10, scheduler: TestScheduler
    ) -> ViewModelHarness<Inbox> {
        var args = Inbox.Arguments()
        args.syncTimeoutSeconds = timeoutSeconds
        return ViewModelHarness(Inbox.self, args: args, services: mail, scheduler: scheduler)
    }

    @Test("a sync lists the messages, counts the unread ones and opens one row per message")
    func syncSucceeds() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let messages = inbox.record(\.messages)
        let unread = inbox.record(\.unreadCount)
        let syncing = inbox.record(\.isSyncing)
        let rows = inbox.record(\.rows)
        let failures = inbox.record(\.syncFailure)

        let sync = inbox.execute(\.sync)
        #expect(syncing.values == [false, true])
        await inbox.settle()

        #expect(sync.values == [sampleMessages])
        #expect(sync.isCompleted)
        #expect(messages.values.map(\.elements) == [[], sampleMessages])
        #expect(unread.values == [0, 2])
        #expect(syncing.values == [false, true, false])
        #expect(rows.last?.map(\.message) == ["m3", "m2", "m1"])
        #expect(inbox.openedChildren.map(\.type) == ["MessageRow", "MessageRow", "MessageRow"])
        #expect(rows.last?.map(\.instance) == inbox.openedChildren.map(\.id))
        #expect(inbox.openedChildren.map(\.id) == ["test-1.m3", "test-1.m2", "test-1.m1"], "rows are named after their messages")
        #expect(failures.values.isEmpty)
    }

    @Test("a failed sync keeps the list and says why in words")
    func syncFails() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(DownMail(), scheduler: scheduler)
        let messages = inbox.record(\.messages)
        let syncing = inbox.record(\.isSyncing)
        let failures = inbox.record(\.syncFailure)

        let sync = inbox.execute(\.sync)
        await inbox.settle()

        #expect(failures.values == ["The mail server is down for maintenance."])
        #expect(syncing.values == [false, true, false])
        #expect(messages.values == [[]])
        #expect(sync.error as? ActionError == .underlyingError(ActionFailure("The mail server is down for maintenance.")))
        #expect(inbox.openedChildren.isEmpty)
    }

    @Test("arguments a client got wrong are read as the nearest sensible value")
    func clampedArguments() async {
        let scheduler = TestScheduler()
        var args = Inbox.Arguments()
        args.pageSize = -5
        args.syncTimeoutSeconds = 0
        let inbox = ViewModelHarness(Inbox.self, args: args, services: LimitEchoMail(), scheduler: scheduler)
        let sync = inbox.execute(\.sync)
        await inbox.settle()
        #expect(sync.values.first?.map(\.subject) == ["limit 0"])
        #expect(sync.isCompleted, "a zero timeout is read as one second, not as already expired")
    }

    @Test("a sync started while one runs supersedes it: the newest answers, nothing is reported as a failure")
    func newestSyncWins() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let failures = inbox.record(\.syncFailure)
        let syncing = inbox.record(\.isSyncing)
        let first = inbox.execute(\.sync)
        let second = inbox.execute(\.sync)
        #expect(first.error as? ActionError == .superseded)
        // Both service calls answer; the superseded one's answer is dropped.
        await inbox.settle()
        #expect(second.values == [sampleMessages])
        #expect(syncing.values == [false, true, false])
        #expect(failures.values.isEmpty)
    }

    @Test("a server slower than the timeout fails the sync at exactly its deadline and cancels the call")
    func syncTimesOut() async {
        let scheduler = TestScheduler()
        let mail = SlowMail(clock: scheduler.virtualClock, delay: .seconds(30))
        let inbox = makeInbox(mail, timeoutSeconds: 10, scheduler: scheduler)
        let syncing = inbox.record(\.isSyncing)
        let failures = inbox.record(\.syncFailure)

        let sync = inbox.execute(\.sync)
        await inbox.advance(by: .seconds(60))

        #expect(syncing.events == [.next(0, false), .next(0, true), .next(10_000, false)])
        #expect(failures.events == [.next(10_000, "The mail server did not answer within 10 seconds.")])
        #expect(isTimeout(sync.error))
        #expect(mail.log.entries == ["sync inbox", "cancelled inbox"])
    }

    @Test("a client that gives up on a sync cancels the call, and nothing is reported as a failure")
    func syncCancelled() async {
        let scheduler = TestScheduler()
        let mail = SlowMail(clock: scheduler.virtualClock, delay: .seconds(30))
        let inbox = makeInbox(mail, scheduler: scheduler)
        let syncing = inbox.record(\.isSyncing)
        let failures = inbox.record(\.syncFailure)
        let messages = inbox.record(\.messages)

        let execution = inbox.ports.sync.execute(()).subscribe(onNext: { _ in })
        await inbox.advance(by: .seconds(1))
        execution.dispose()
        await inbox.advance(by: .seconds(60))

        #expect(mail.log.entries == ["sync inbox", "cancelled inbox"])
        #expect(syncing.events == [.next(0, false), .next(0, true), .next(1000, false)])
        #expect(failures.events.isEmpty)
        #expect(messages.values == [[]])
    }

    @Test("marking a message read goes through its row, and the row's report lowers the unread count")
    func rowMarksRead() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let unread = inbox.record(\.unreadCount)
        inbox.execute(\.sync)
        await inbox.settle()

        inbox.send(\.markRead, "m2")
        await inbox.settle()
        #expect(unread.values == [0, 2, 1])
        #expect(inbox.ports.messages.value.map(\.isRead) == [false, true, true])

        inbox.send(\.markRead, "m2")
        inbox.send(\.markRead, "no-such-message")
        await inbox.settle()
        #expect(unread.values == [0, 2, 1])
    }

    @Test("a row driven directly, as a client drives it, reports back to the inbox")
    func rowDrivenDirectly() async throws {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let unread = inbox.record(\.unreadCount)
        let rows = inbox.record(\.rows)
        inbox.execute(\.sync)
        await inbox.settle()
        let link = try #require(rows.last?.first)
        let row = try #require(inbox.child(MessageRow.self, id: link.instance))

        row.send(\.markRead)
        await inbox.settle()
        #expect(unread.values == [0, 2, 1])
        #expect(inbox.ports.messages.value.first?.isRead == true)

        row.send(\.archive)
        await inbox.settle()
        #expect(inbox.ports.messages.value.map(\.id) == ["m2", "m1"])
        #expect(inbox.children(MessageRow.self).map(\.id) == rows.last?.map(\.instance))
        #expect(row.isDisposed, "the archived row is destroyed by its parent")
    }

    @Test("mark all read reaches every row and the count drops to zero once")
    func markAllRead() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let unread = inbox.record(\.unreadCount)
        inbox.execute(\.sync)
        await inbox.settle()

        inbox.send(\.markAllRead)
        await inbox.settle()
        #expect(unread.values == [0, 2, 1, 0])
    }

    @Test("an archived row leaves the list, its row is closed, and the next sync keeps it out")
    func rowArchives() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let rows = inbox.record(\.rows)
        let unread = inbox.record(\.unreadCount)
        inbox.execute(\.sync)
        await inbox.settle()

        inbox.send(\.archive, "m3")
        await inbox.settle()
        #expect(inbox.ports.messages.value.map(\.id) == ["m2", "m1"])
        #expect(rows.last?.map(\.message) == ["m2", "m1"])
        #expect(unread.values == [0, 2, 1])

        inbox.execute(\.sync)
        await inbox.settle()
        #expect(inbox.ports.messages.value.map(\.id) == ["m2", "m1"])
        #expect(inbox.openedChildren.count == 3, "the kept rows are not opened again")
    }

    @Test("a message read here stays read when a lagging server still says unread")
    func readStaysRead() async {
        let scheduler = TestScheduler()
        let inbox = makeInbox(FixedMail(messages: sampleMessages), scheduler: scheduler)
        let unread = inbox.record(\.unreadCount)
        inbox.execute(\.sync)
        await inbox.settle()
        inbox.send(\.markRead, "m3")
        await inbox.settle()

        inbox.execute(\.sync)
        await inbox.settle()
        #expect(unread.values == [0, 2, 1])
        #expect(inbox.ports.messages.value.map(\.isRead) == [true, false, true])
    }
}
