import ReactiveCore
import ViewModelKit

/// A mail folder: its messages and unread count, a `sync` with the mail server, and one
/// ``MessageRow`` child instance per listed message.
///
/// - `sync` asks the injected ``MailService`` for the folder (`isSyncing` while it runs).
///   Its strategy is `latest`: a sync started while one runs supersedes it (the older
///   request's task is cancelled and its `vm.execute` answered `actionSuperseded`), so a
///   refresh always lists the newest answer. It fails after `syncTimeoutSeconds` without an answer:
///   the timeout runs on the inbox's scheduler, so a test's virtual clock controls it, and
///   the service's task is cancelled. A client that cancels its `vm.execute` cancels the
///   task too. A failure leaves the list as it was and says why on `syncFailure`.
/// - Each listed message gets a `MessageRow` child (`rows` says which instance shows
///   which message). The inbox watches each row through its child handle: a row that
///   becomes read lowers `unreadCount`, a row that is archived leaves the list and is
///   destroyed. `markRead` and `archive` (by message id) and `markAllRead` push into the
///   rows, exactly as a client driving a row directly would.
/// - Reading and archiving are local: a later sync keeps a message read once a row was
///   read, and keeps archived messages out. Both marks are saved (`context.saved`), so a
///   durable inbox (`vm.create {durable: true}`) keeps them across restarts of the daemon;
///   its rows are made again by the first sync.
public struct Inbox: ViewModel {
    public typealias Services = any MailService
    public static let summary = "A mail folder: messages, unread count, a sync with the mail server, one MessageRow per message."

    /// `{"folder": "inbox", "pageSize": 50, "syncTimeoutSeconds": 10}`, each optional.
    public struct Arguments: ViewModelArguments, Equatable {
        /// The folder to list.
        public var folder = "inbox"
        /// The most messages one sync fetches (a negative number reads as 0).
        public var pageSize = 50
        /// How long a sync may wait for the mail server (at least 1 second).
        public var syncTimeoutSeconds = 10

        /// The defaults above.
        public init() {}
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let markRead = Input<String>("Mark the message with this id as read (through its row).")
        public let archive = Input<String>("Archive the message with this id (through its row).")
        public let markAllRead = Input<Void>("Mark every listed message as read.")
        public let messages = State<IdentifiedList<Message>>("The listed messages, newest first.", initial: [])
        public let rows = State<[MessageRowLink]>("The MessageRow instance of each listed message, in list order.", initial: [])
        public let unreadCount = State<Int>("How many listed messages are unread.", initial: 0)
        public let isSyncing = State<Bool>("sync is running.", initial: false)
        public let syncFailure = EventOutput<String>("Why a sync failed, for a person.")
        public let sync = ActionPort<Void, [Message]>("Fetch the folder from the mail server; returns what it sent.")

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let mail = context.services
        let folder = context.args.folder
        // Arguments come from clients: a negative page or a timeout under a second is read
        // as the nearest sensible value rather than trusted.
        let pageSize = max(0, context.args.pageSize)
        let timeoutSeconds = max(1, context.args.syncTimeoutSeconds)
        let sync: Action<Void, [Message]> = context.action(strategy: .latest, timeout: .seconds(timeoutSeconds)) { _ in
            try await mail.messages(in: folder, limit: pageSize)
        }

        // The list is edited in place by syncs and by what the rows report (so a patch
        // subscriber is sent each edit, not the list); the rows follow the list, so their
        // reports come back through this subject (the one cycle).
        let rowReports = PublishSubject<Change>()
        let readMarks = context.saved("read", default: [String]())
        let archiveMarks = context.saved("archived", default: [String]())
        var marks = Marks(read: Set(readMarks.value), archived: Set(archiveMarks.value))
        ports.messages.bind(Observable.merge(sync.elements.map(Change.synced), rowReports.asObservable())) { messages, change in
            marks.apply(change, to: &messages)
            // Saved only in a durable inbox; a write that changes nothing is skipped.
            let read = marks.read.sorted(), archived = marks.archived.sorted()
            if readMarks.value != read { readMarks.value = read }
            if archiveMarks.value != archived { archiveMarks.value = archived }
        }
        let rows = ports.messages
            .scan(RowTable()) { table, messages in table.updated(to: messages.elements, context: context) }
            .distinctUntilChanged { $0.links == $1.links }
            .share(replay: 1)

        ports.rows.bind(rows.map(\.links))
        ports.unreadCount.bind(ports.messages.map { messages in messages.filter { !$0.isRead }.count }.distinctUntilChanged())
        ports.isSyncing.bind(sync.executing)
        ports.syncFailure.bind(sync.errors.compactMap { Self.failureMessage($0, timeoutSeconds: timeoutSeconds) })
        ports.sync.bind(sync)

        // What the rows report is applied on the next turn of the scheduler, after the update
        // in progress, never inside it: a row reports its current value as soon as the
        // inbox starts watching it (that is, from inside the list's own update), and an
        // archived row is destroyed by the update its report causes.
        rows.flatMapLatest { table in Observable.merge(table.rows.map(\.reports)) }
            .observe(on: context.scheduler)
            .subscribe(onNext: { rowReports.onNext($0) })
            .disposed(by: context.bag)

        // The inbox's own inputs go through the rows, as a client's would.
        ports.markRead.withLatestFrom(rows) { id, table in table.row(for: id) }
            .subscribe(onNext: { row in row?.send(\.markRead) })
            .disposed(by: context.bag)
        ports.archive.withLatestFrom(rows) { id, table in table.row(for: id) }
            .subscribe(onNext: { row in row?.send(\.archive) })
            .disposed(by: context.bag)
        ports.markAllRead.withLatestFrom(rows)
            .subscribe(onNext: { table in for row in table.rows { row.handle.send(\.markRead) } })
            .disposed(by: context.bag)
    }

    /// The sentence `syncFailure` shows for a failed sync; `nil` for one that did not fail
    /// (refused, or superseded by a newer sync).
    static func failureMessage(_ error: ActionError, timeoutSeconds: Int) -> String? {
        guard case .underlyingError(let underlying) = error else { return nil }
        if underlying is ViewModelTimeoutError {
            return "The mail server did not answer within \(timeoutSeconds) seconds."
        }
        return error.failureMessage
    }
}

extension Message: Identifiable {}

extension Inbox {
    /// One change to the list.
    enum Change {
        /// A sync brought the folder's messages.
        case synced([Message])
        /// A row says whether its message is read.
        case read(id: String, isRead: Bool)
        /// A row's message was archived.
        case archived(id: String)
    }

    /// What the inbox remembers beside the list: the messages read or archived here.
    struct Marks {
        /// Read here (of the listed messages, or saved before the first sync), so read in
        /// later syncs.
        var read: Set<String> = []
        /// Archived here, so kept out of later syncs.
        var archived: Set<String> = []

        /// Applies `change` to `messages` as edits: a read mark is one `replace`, an archive
        /// one `remove`; a sync replaces the list only when it differs.
        mutating func apply(_ change: Change, to messages: inout IdentifiedList<Message>) {
            switch change {
            case .synced(let fetched):
                // Read stays read: a row read here is not unread by a server that lags.
                let listed = fetched
                    .filter { !archived.contains($0.id) }
                    .map { message in
                        var message = message
                        message.isRead = message.isRead || read.contains(message.id)
                        return message
                    }
                // Only listed messages' marks are kept: the set stays as small as the page.
                read = Set(listed.filter(\.isRead).map(\.id))
                if messages.elements != listed { messages.replaceAll(with: listed) }
            case .read(let id, let isRead):
                guard isRead else { return }
                read.insert(id)
                if messages[id: id]?.isRead == false { messages.update(id: id) { $0.isRead = true } }
            case .archived(let id):
                archived.insert(id)
                messages.remove(id: id)
            }
        }
    }

    /// The open rows, one per listed message, in list order.
    struct RowTable {
        struct Row {
            let message: String
            let handle: ChildViewModel<MessageRow>
            /// Whether the row was last told its message is read.
            var isRead: Bool

            /// What the row reports to the inbox: its read flag (the current one first) and
            /// its archiving.
            var reports: Observable<Change> {
                let id = message
                return Observable.merge(
                    handle.output(\.isRead).map { Change.read(id: id, isRead: $0) },
                    handle.output(\.archived).map { _ in Change.archived(id: id) })
            }
        }

        var rows: [Row] = []

        var links: [MessageRowLink] {
            rows.map { MessageRowLink(message: $0.message, instance: $0.handle.id) }
        }

        func row(for message: String) -> ChildViewModel<MessageRow>? {
            rows.first { $0.message == message }?.handle
        }

        /// A row for `message`, named `<inbox>.<message id>` (`inbox.m1`) so that a client
        /// addresses it without reading `rows`; under a generated id when that name is no
        /// valid instance id; `nil` when the daemon refuses another instance.
        static func openRow(for message: Message, context: ViewModelContext<Inbox>) -> ChildViewModel<MessageRow>? {
            let args = MessageRow.Arguments(message)
            if let named = try? context.createChild(MessageRow.self, args: args, id: context.id + "." + message.id) {
                return named
            }
            return try? context.createChild(MessageRow.self, args: args)
        }

        /// The table for `messages`: a new row for each new message, the rows of messages no
        /// longer listed destroyed, and rows whose message a sync says is read told so. A row
        /// that cannot be opened (the daemon's instance limit) is left out; its message is
        /// still listed.
        func updated(to messages: [Message], context: ViewModelContext<Inbox>) -> RowTable {
            let listed = Set(messages.map(\.id))
            for row in rows where !listed.contains(row.message) {
                row.handle.destroy()
            }
            var next = RowTable()
            for message in messages {
                if var row = rows.first(where: { $0.message == message.id }) {
                    if message.isRead, !row.isRead {
                        row.handle.send(\.markRead)
                        row.isRead = true
                    }
                    next.rows.append(row)
                } else if let handle = Self.openRow(for: message, context: context) {
                    next.rows.append(Row(message: message.id, handle: handle, isRead: message.isRead))
                }
            }
            return next
        }
    }
}
