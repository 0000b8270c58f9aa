import ReactiveCore
import ViewModelKit

/// One line of the inbox: a message's sender and subject, whether it is read, and the two
/// things a person does to it, mark it read or archive it.
///
/// ``Inbox`` creates one as its child for each message it lists and watches it through the
/// child handle: `isRead` feeds the inbox's `unreadCount`, `archived` removes the message
/// from the list (and this instance with it). A client drives a row like any instance:
/// `vmctl send <row> markRead`.
public struct MessageRow: ViewModel {
    public static let summary = "One message of the inbox: read it or archive it."

    /// `{"id": "", "from": "", "subject": "", "isRead": false}`: the message this row shows.
    /// Each default is written once, here; omitted members take it.
    public struct Arguments: ViewModelArguments, Equatable {
        /// The message's id.
        public var id = ""
        /// Who sent it.
        public var from = ""
        /// Its subject line.
        public var subject = ""
        /// Whether it was already read when the row was opened.
        public var isRead = false

        /// A row of nothing yet (every member at its default).
        public init() {}
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let markRead = Input<Void>("The person opened the message.")
        public let archive = Input<Void>("Move the message out of the inbox.")
        public let from = State<String>("Who sent the message.", initial: "")
        public let subject = State<String>("The message's subject line.", initial: "")
        public let isRead = State<Bool>("Whether the message has been read.", initial: false)
        public let archived = EventOutput<Void>("The person archived the message (sent once).")
        public let editReply = Input<ReplyDraft>("The person edited their reply (sent as they type).")
        public let reply = State<ReplyDraft>("The reply being written, as last edited: every window shows the same draft.", initial: ReplyDraft())

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let message = context.args
        ports.from.accept(message.from)
        ports.subject.accept(message.subject)
        ports.isRead.bind(ports.markRead.map { _ in true }.startWith(message.isRead).distinctUntilChanged())
        ports.archived.bind(ports.archive.take(1))
        // A client's caret may run past the text (an edit racing a deletion): it reads as the end.
        ports.reply.bind(ports.editReply.map(\.clamped))
    }
}

extension MessageRow.Arguments {
    /// The row of `message`.
    public init(_ message: Message) {
        self.init()
        id = message.id
        from = message.from
        subject = message.subject
        isRead = message.isRead
    }
}
