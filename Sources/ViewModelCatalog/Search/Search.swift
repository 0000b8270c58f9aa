import JSONCore
import ReactiveCore
import ViewModelKit

/// Search as you type: the `latest` execution strategy and the debounce.
///
/// Typing into `query` searches once the typing pauses for ``debounce`` (each keystroke
/// restarts the wait; an unchanged query is not searched again). Each search is an
/// execution of `search`, whose strategy is `latest`: a new search cancels the one still
/// running, which is answered `actionSuperseded` on the wire, so a slow answer to an old query
/// never overwrites a newer one. `results` holds the latest finished search's entries and
/// `isSearching` is true while one runs (it stays true across a hand-over). `latencyMs`
/// is the simulated service delay of every search. Clients may also execute `search`
/// directly with a query.
public struct Search: ViewModel {
    public typealias Services = any SearchIndex
    public static let summary = "Search as you type: debounced queries, the newest search wins (strategy latest)."

    /// How long typing must pause before the query is searched.
    package static let debounce: Duration = .milliseconds(250)

    /// `{"latencyMs": integer 0…600000}`, its default written once below.
    public struct Arguments: ViewModelArguments, Equatable {
        /// Simulated service delay of each search, in milliseconds.
        public var latencyMs = 300

        /// Every argument at its default.
        public init() {}

        /// The arguments with `latencyMs` given.
        public init(latencyMs: Int) {
            self.latencyMs = latencyMs
        }

        /// `latencyMs` is bounded (see ``Milliseconds``).
        public static var memberSchemas: [String: JSONValue] { ["latencyMs": Milliseconds.schema] }
    }

    /// The ports, in wire order.
    public struct Ports: ViewModelPorts {
        public let query = Input<String>("What the user typed; searched once typing pauses for 250 ms.")
        public let results = State<[String]>("The entries found by the latest finished search.", initial: [])
        public let isSearching = State<Bool>("A search is running.", initial: false)
        public let search = ActionPort<String, [String]>(
            "Search for a query now (strategy latest: a newer search cancels this one, answered actionSuperseded).")

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let index = context.services
        let search: Action<String, [String]> = context.action(
            strategy: .latest, after: Milliseconds.duration(context.args.latencyMs)
        ) { query in
            try await index.search(query)
        }
        ports.search.bind(search)
        ports.results.bind(search.elements)
        ports.isSearching.bind(search.executing)
        ports.query
            .map(TextRules.trimmed)
            .debounce(Search.debounce, scheduler: context.scheduler)
            .distinctUntilChanged()
            .subscribe(onNext: { search.execute($0) })
            .disposed(by: context.bag)
    }
}
