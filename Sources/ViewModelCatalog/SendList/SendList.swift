import JSONCore
import ReactiveCore
import ViewModelKit

/// The MVVM articles' real-life example: "send stuff to a sending list with a database upload and
/// present a new scene".
///
/// Recipients are added and removed (trimmed; adding one already listed, or removing one
/// that is not, changes nothing), and a message is typed. `canSend` holds while there is a
/// recipient and the message is not blank; `send` is enabled only then, one at a time
/// (`isSending` while it runs). `send` uploads the message and recipients to the injected
/// ``SendStore`` and, once the store has acknowledged it, opens the next scene: it creates
/// a ``SendReceipt`` child instance and announces it on `navigate` as `{type, instance}`
/// (and returns `{uploadId, type, instance}`). If the upload fails, `send` fails with the
/// store's message, nothing is announced and the list stays as it was. (If the upload is
/// stored but the receipt cannot be opened, at the daemon's instance limit, `send` fails
/// with a message that says the upload was stored, and its id.)
///
/// `uploadMs` (a creation argument, 0 by default) simulates a slow upload of that length
/// before the store is called: `send` reports its progress in percent (`completed` 0, 10,
/// … 100 of `total` 100, `message` "uploading", "uploaded"), which a client sees as
/// `vm.progress` when it executes `send` with `progress: true`.
///
/// The recipient list is one `scan` over the edits: no mutable variable.
public struct SendList: ViewModel {
    public typealias Services = any SendStore

    /// `{"uploadMs": integer 0…600000}`, its default written once below.
    public struct Arguments: ViewModelArguments, Equatable {
        /// Length of the simulated upload `send` reports progress for, in milliseconds.
        public var uploadMs = 0

        /// Every argument at its default.
        public init() {}

        /// The arguments with `uploadMs` given.
        public init(uploadMs: Int) {
            self.uploadMs = uploadMs
        }

        /// `uploadMs` is bounded (see ``Milliseconds``).
        public static var memberSchemas: [String: JSONValue] { ["uploadMs": Milliseconds.schema] }
    }

    /// How many progress steps a simulated upload reports after its start (10% each).
    static let uploadSteps = 10

    public static let summary = "A sending list: recipients and a message, uploaded to a store, then a receipt scene."

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let addRecipient = Input<String>("Add a recipient (surrounding spaces are ignored).", codec: SendList.recipientCodec)
        public let removeRecipient = Input<String>("Remove a recipient (surrounding spaces are ignored).", codec: SendList.recipientCodec)
        public let message = Input<String>("The message to send.")
        public let recipients = State<[String]>("The recipients, in the order they were added.", initial: [])
        public let canSend = State<Bool>("There is at least one recipient and the message is not blank.", initial: false)
        public let isSending = State<Bool>("send is running.", initial: false)
        public let navigate = EventOutput<Navigation>("A scene to present after a successful send: {type, instance}.")
        public let send = ActionPort<SendRequest, SendResult>(
            "Upload the message and recipients, then open a SendReceipt scene. Pass {\"key\": K} to send at most once "
                + "per key K (a retry after a lost answer or a daemon restart answers with the first upload).")

        public init() {}
    }

    /// A recipient on the wire: a string with something other than whitespace, at most 254
    /// characters (the longest email address).
    static var recipientCodec: ValueCodec<String> {
        ValueCodec<String>.json.withSchema(["type": "string", "minLength": 1, "maxLength": 254, "pattern": "\\S"])
    }

    /// One edit of the list.
    private enum Edit {
        case add(String)
        case remove(String)

        func applied(to list: [String]) -> [String] {
            switch self {
            case .add(let recipient):
                list.contains(recipient) ? list : list + [recipient]
            case .remove(let recipient):
                list.filter { $0 != recipient }
            }
        }
    }

    public init(ports: Ports, context: Context) {
        let recipients = Observable.merge(
            ports.addRecipient.map { Edit.add(TextRules.trimmed($0)) },
            ports.removeRecipient.map { Edit.remove(TextRules.trimmed($0)) })
            .scan([String]()) { list, edit in edit.applied(to: list) }
            .startWith([])
            .distinctUntilChanged()
            .share(replay: 1)
        let draft = Observable.combineLatest(ports.message.startWith(""), recipients).share(replay: 1)
        let canSend = draft
            .map { message, recipients in !recipients.isEmpty && !TextRules.trimmed(message).isEmpty }
            .distinctUntilChanged()
            .share(replay: 1)
        // Bound before anything derived from them subscribes, so a client sees the new
        // recipients before the canSend computed from them.
        ports.recipients.bind(recipients)
        ports.canSend.bind(canSend)

        let store = context.services
        // The latest draft, read when send runs (`draft` replays it at once).
        let upload = Milliseconds.duration(context.args.uploadMs)
        let send = Action<SendRequest, SendResult>(strategy: .exclusive, enabledIf: canSend) { request, progress in
            draft.take(1).flatMap { message, recipients in
                SendList.simulatedUpload(upload, scheduler: context.scheduler, progress: progress)
                    .map { (message, recipients) }
            }
            .flatMap { message, recipients in
                context.call {
                    try await store.upload(message: message, recipients: recipients, key: request.key)
                }
            }
            .map { (upload: Upload) throws -> SendResult in
                // Back on the instance's thread, after the store acknowledged the upload.
                let receipt: String
                do throws(ViewModelError) {
                    receipt = try context.createChild(SendReceipt.self, args: SendReceipt.Arguments(upload)).id
                } catch {
                    // The upload is stored; say so, so nobody sends it twice.
                    throw ActionFailure(
                        "Sent (upload \(upload.id)), but the receipt could not be opened: \(error.message)",
                        data: ["reason": "receiptNotOpened", "uploadId": upload.id.jsonValue])
                }
                return SendResult(uploadId: upload.id, navigation: Navigation(type: SendReceipt.typeName, instance: receipt))
            }
        }
        ports.send.bind(send)
        ports.isSending.bind(send.executing)
        ports.navigate.bind(send.elements.map(\.navigation))
    }

    /// Reports an upload of `length` in ``uploadSteps`` steps on `scheduler` (virtual time
    /// under test), then emits once and completes; with no length, at once and silently.
    static func simulatedUpload(_ length: Duration, scheduler: any Scheduler, progress: ActionProgressReporter) -> Observable<Void> {
        guard length > .zero else { return .just(()) }
        let steps = uploadSteps
        let step = length / steps
        progress.report(completed: 0, total: 100, message: "uploading")
        return Observable.from(1...steps)
            .concatMap { index in Observable.just(index).delay(step, scheduler: scheduler) }
            .do(onNext: { index in
                progress.report(completed: Double(index * 100 / steps), total: 100, message: index == steps ? "uploaded" : "uploading")
            })
            .filter { $0 == steps }
            .map { _ in () }
    }
}
