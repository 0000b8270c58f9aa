import InboxKit
import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("MessageRow: one message, read once, archived once")
struct MessageRowTests {
    private func makeRow(_ message: Message) -> ViewModelHarness<MessageRow> {
        ViewModelHarness(MessageRow.self, args: MessageRow.Arguments(message), scheduler: TestScheduler())
    }

    @Test("a row shows its message and becomes read once, however often it is opened")
    func markRead() {
        let row = makeRow(Message(id: "m1", from: "ada@example.com", subject: "Engine notes"))
        let isRead = row.record(\.isRead)
        #expect(row.ports.from.value == "ada@example.com")
        #expect(row.ports.subject.value == "Engine notes")
        row.send(\.markRead)
        row.send(\.markRead)
        #expect(isRead.values == [false, true])
    }

    @Test("a row of a message already read starts read")
    func startsRead() {
        let row = makeRow(Message(id: "m1", from: "alan@example.com", subject: "Numbers", isRead: true))
        let isRead = row.record(\.isRead)
        row.send(\.markRead)
        #expect(isRead.values == [true])
    }

    @Test("archiving is announced once")
    func archive() {
        let row = makeRow(Message(id: "m1", from: "ada@example.com", subject: "Engine notes"))
        let archived = row.record(\.archived)
        row.send(\.archive)
        row.send(\.archive)
        #expect(archived.values.count == 1)
    }

    @Test("the reply follows the person's edits as they type; a caret past the end reads as the end")
    func replyFollowsTheEdits() async {
        let row = makeRow(Message(id: "m1", from: "ada@example.com", subject: "Engine notes"))
        let reply = row.record(\.reply)

        row.send(\.editReply, ReplyDraft(text: "T", cursor: 1))
        await row.advance(by: .milliseconds(120))
        row.send(\.editReply, ReplyDraft(text: "Th", cursor: 2))
        await row.advance(by: .milliseconds(80))
        row.send(\.editReply, ReplyDraft(text: "Tha", cursor: 7))

        #expect(reply.events == [
            .next(0, ReplyDraft()),
            .next(0, ReplyDraft(text: "T", cursor: 1)),
            .next(120, ReplyDraft(text: "Th", cursor: 2)),
            .next(200, ReplyDraft(text: "Tha", cursor: 3)),
        ])
    }

    @Test("an edit that changes nothing the person sees is not sent on")
    func unchangedReplyIsNotRepeated() async {
        let row = makeRow(Message(id: "m1", from: "ada@example.com", subject: "Engine notes"))
        let reply = row.record(\.reply)

        row.send(\.editReply, ReplyDraft(text: "Hi", cursor: 2))
        await row.advance(by: .milliseconds(50))
        row.send(\.editReply, ReplyDraft(text: "Hi", cursor: 40))
        row.send(\.editReply, ReplyDraft(text: "Hi", cursor: 2))

        #expect(reply.events == [.next(0, ReplyDraft()), .next(0, ReplyDraft(text: "Hi", cursor: 2))])
    }

    @Test("omitted arguments take the defaults written in the declaration, and unknown ones are refused")
    func arguments() throws {
        let args = try MessageRow.Arguments(json: ["id": "m7", "subject": "Lunch?"])
        var expected = MessageRow.Arguments()
        expected.id = "m7"
        expected.subject = "Lunch?"
        #expect(args == expected)
        #expect(args.from == "" && args.isRead == false)
        #expect(throws: JSONDecodingError.self) { try MessageRow.Arguments(json: ["id": "m7", "colour": "red"]) }
    }
}
