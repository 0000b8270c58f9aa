import ReactiveCore
import Testing
import ViewModelKit
import ViewModelTesting

/// A search-as-you-type view model whose service takes 300 ms, replayed by ``TapePlayer``: the
/// async work an input starts runs on virtual time, and the tape's `t` decides whether the
/// user waited for the results or typed on (the newer query cancels the older search).
@Suite("Replaying a search as you type in-process")
struct TapePlayerSearchTests {
    /// Each query searches a word list after 300 ms on the instance's clock; a newer query
    /// cancels the search still running.
    struct Search: ViewModel {
        static let summary = "Words that start with the query, after a slow service."

        struct Ports: ViewModelPorts {
            let query = Input<String>("What the user typed.")
            let results = State<[String]>("The words matching the latest query.", initial: [])

            init() {}
        }

        init(ports: Ports, context: Context) {
            let words = ["swift", "swim", "switch", "tape", "time"]
            ports.results.bind(ports.query.flatMapLatest { query in
                context.call(after: .milliseconds(300)) { words.filter { $0.hasPrefix(query) } }
            })
        }
    }

    static func replay(_ tape: String) async -> TapePlayer.Failure? {
        do {
            var registry = ViewModelRegistry()
            try registry.register(Search.self)
            try await TapePlayer(registry: registry).replay(tape: tape)
            return nil
        } catch let failure as TapePlayer.Failure {
            return failure
        } catch {
            return .badTape("\(error)")
        }
    }

    /// The user typed "sw", waited for its results, then typed "swit" and waited again. (A State
    /// does not re-send an equal value, so the second query's results differ from the first's.)
    static let waited = """
        {"tape":2,"type":"Search","fromCreation":true}
        {"event":"output","t":0,"output":"results","value":[],"replay":true}
        {"event":"input","t":100,"input":"query","value":"sw","connection":1}
        {"event":"output","t":400,"output":"results","value":["swift","swim","switch"]}
        {"event":"input","t":1500,"input":"query","value":"swit","connection":1}
        {"event":"output","t":1800,"output":"results","value":["switch"]}

        """

    @Test("results the user waited for replay green, each search answering on virtual time")
    func waitedForResults() async {
        #expect(await Self.replay(Self.waited) == nil)
    }

    @Test("the same keystrokes 100 ms apart cancel the first search: the replay fails there")
    func typedOn() async {
        let rushed = Self.waited.replacing(#""t":1500,"input""#, with: #""t":200,"input""#)
        let failure = await Self.replay(rushed)
        #expect(failure == .divergence("""
            output "results" differs at value #2
              expected: ["swift","swim","switch"]
              got:      ["switch"]
              after:    step 1 (line 3): input query "sw"
            """), "\(String(describing: failure))")
    }
}
