import JSONCore
import ReactiveCore
import Synchronization
import ViewModelKit

// A parent with typed children (the coordinator pattern: rows report back to their inbox),
// and a view model whose service is slow, for the virtual-time tests.

/// One message of an ``Inbox``: a child scene. It announces itself during `init`.
struct MessageRow: ViewModel {
    static let summary = "One message: read or not."

    struct Arguments: JSONConvertible {
        var id: String
        init(id: String) { self.id = id }
        init(json: JSONValue) throws(JSONDecodingError) { id = try JSONObjectDecoder(json).decode("id") }
        var jsonValue: JSONValue { ["id": .string(id)] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["id": ["type": "string"]], required: ["id"]) }
    }

    struct Ports: ViewModelPorts {
        let markRead = Input<Void>("Mark the message read.")
        let isRead = State<Bool>("The message was read.", initial: false)
        let opened = EventOutput<String>("The row's message id, emitted by init.")
        let archive = ActionPort<Void, String>("Archive the message; returns its id.")
    }

    init(ports: Ports, context: Context) {
        let id = context.args.id
        ports.isRead.bind(ports.markRead.map { true })
        ports.archive.bind(Action<Void, String> { _ in .just(id) })
        ports.opened.accept(id)
    }
}

/// Holds one row per message as a ``ChildViewModel`` handle: counts the unread rows from
/// their `isRead`, forwards their `opened` announcements, marks them all read through their
/// inputs, archives one through its action and destroys it.
struct Inbox: ViewModel {
    static let summary = "Messages as child rows; counts the unread ones."

    struct Ports: ViewModelPorts {
        let add = Input<String>("Add a row for this message id.")
        let markAllRead = Input<Void>("Mark every row read.")
        let unread = State<Int>("How many rows are not read.", initial: 0)
        let rowOpened = EventOutput<String>("A row announced itself.")
        let ready = EventOutput<Void>("Emitted by init.")
        let archive = ActionPort<String, String>("Archive the row of this message id, then close it.")
    }

    typealias Row = (id: String, handle: ChildViewModel<MessageRow>)

    private enum Edit {
        case add(Row)
        case remove(String)
    }

    init(ports: Ports, context: Context) {
        let welcome = (try? context.createChild(MessageRow.self, args: .init(id: "welcome"))).map { [Row("welcome", $0)] } ?? []
        let added = ports.add
            .compactMap { id -> Row? in (try? context.createChild(MessageRow.self, args: .init(id: id))).map { (id, $0) } }
            .share()
        let latest = LatestRows()
        let archive = Action<String, String> { id in
            guard let row = latest.rows.first(where: { $0.id == id }) else { return .error(ActionFailure("No row \(id).")) }
            return row.handle.execute(\.archive).do(onNext: { _ in row.handle.destroy() })
        }
        let rows = Observable.merge(added.map(Edit.add), archive.elements.map(Edit.remove))
            .scan(welcome) { rows, edit in
                switch edit {
                case .add(let row): rows + [row]
                case .remove(let id): rows.filter { $0.id != id }
                }
            }
            .startWith(welcome)
            .share(replay: 1)
        rows.subscribe(onNext: { latest.rows = $0 }).disposed(by: context.bag)
        ports.archive.bind(archive)
        ports.unread.bind(rows.flatMapLatest { rows -> Observable<Int> in
            guard !rows.isEmpty else { return .just(0) }
            return Observable.combineLatest(rows.map { $0.handle.output(\.isRead) }).map { $0.filter { !$0 }.count }
        }.distinctUntilChanged())
        ports.rowOpened.bind(Observable.merge(welcome.map { $0.handle.output(\.opened) } + [added.flatMap { $0.handle.output(\.opened) }]))
        ports.markAllRead.withLatestFrom(rows)
            .subscribe(onNext: { rows in for row in rows { row.handle.send(\.markRead) } })
            .disposed(by: context.bag)
        ports.ready.accept(())
    }
}

/// The rows an ``Inbox`` shows now (graph thread only).
private final class LatestRows {
    var rows: [Inbox.Row] = []
}

/// What ``Fetcher`` calls: an async service.
protocol Fetching: Sendable {
    func fetch() async throws -> String
}

/// A service that sleeps for real (`Task.sleep`) and reports what happened to it.
final class SleepingService: Fetching {
    let sleep: Duration
    /// Sleeps on this clock (a test's virtual clock); on real time when `nil`.
    let clock: (any Clock<Duration>)?
    let steps: AsyncStream<String>
    /// How many times `fetch` was called.
    let calls = Mutex(0)
    private let report: AsyncStream<String>.Continuation

    init(sleep: Duration, on clock: (any Clock<Duration>)? = nil) {
        self.sleep = sleep
        self.clock = clock
        (steps, report) = AsyncStream.makeStream(of: String.self)
    }

    func fetch() async throws -> String {
        calls.withLock { $0 += 1 }
        report.yield("started")
        do {
            if let clock { try await clock.sleep(for: sleep) } else { try await Task.sleep(for: sleep) }
        } catch {
            report.yield("cancelled")
            throw error
        }
        report.yield("finished")
        return "fetched"
    }
}

/// Fetches through ``Fetching`` with the kit's virtual-time latency and timeout.
struct Fetcher: ViewModel {
    typealias Services = any Fetching
    static let summary = "Fetches with a latency and a timeout."

    struct Arguments: JSONConvertible {
        var latencyMs: Int
        var timeoutMs: Int?
        init(latencyMs: Int = 0, timeoutMs: Int? = nil) {
            self.latencyMs = latencyMs
            self.timeoutMs = timeoutMs
        }
        init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            latencyMs = try members.decode("latencyMs", default: 0)
            let timeout: Int = try members.decode("timeoutMs", default: 0)
            timeoutMs = timeout > 0 ? timeout : nil
        }
        var jsonValue: JSONValue { ["latencyMs": latencyMs.jsonValue, "timeoutMs": (timeoutMs ?? 0).jsonValue] }
        static var jsonSchema: JSONValue {
            JSONSchemaBuilder.object(["latencyMs": ["type": "integer", "default": 0], "timeoutMs": ["type": "integer", "default": 0]])
        }
    }

    struct Ports: ViewModelPorts {
        let isFetching = State<Bool>("fetch is running.", initial: false)
        let failure = EventOutput<String>("Why fetch failed.")
        let fetch = ActionPort<Void, String>("Fetch once.")
    }

    init(ports: Ports, context: Context) {
        let service = context.services
        let fetch: Action<Void, String> = context.action(
            after: .milliseconds(context.args.latencyMs), timeout: context.args.timeoutMs.map { .milliseconds($0) }
        ) { _ in try await service.fetch() }
        ports.fetch.bind(fetch)
        ports.isFetching.bind(fetch.executing)
        ports.failure.bind(fetch.errors.compactMap(\.failureMessage))
    }
}

/// A parent whose child needs services: it opens a ``Fetcher`` and runs the child's action.
struct FetchPanel: ViewModel {
    static let summary = "Runs a Fetcher child's fetch."

    struct Ports: ViewModelPorts {
        let hasFetcher = State<Bool>("The Fetcher child could be opened.", initial: false)
        let fetch = ActionPort<Void, String>("Run the child's fetch.")
    }

    init(ports: Ports, context: Context) {
        let fetcher = try? context.createChild(Fetcher.self, args: .init())
        ports.hasFetcher.accept(fetcher != nil)
        ports.fetch.bind(Action<Void, String> { _ in fetcher?.execute(\.fetch) ?? .error(ActionFailure("No fetcher.")) })
    }
}
