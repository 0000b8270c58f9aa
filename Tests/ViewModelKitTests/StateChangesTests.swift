import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

/// A number pushed in and shown as a state, as an `Equatable` `Int`.
struct Echo: ViewModel {
    static let summary = "Shows the last number pushed, for the state change tests."

    struct Ports: ViewModelPorts {
        let number = Input<Int>("A number.")
        let last = State<Int>("The last number pushed.", initial: 0)
    }

    init(ports: Ports, context: Context) {
        ports.last.bind(ports.number)
    }
}

/// A value with no `==`: every value it is given counts as new.
struct Opaque: Sendable {
    var n: Int
}

@Suite("A state of an Equatable type publishes changes only")
struct StateChangesTests {
    @Test("a bound value equal to the latest one is not sent again, the initial value included")
    func boundRepeatsAreDropped() throws {
        let echo = try ViewModelHarness(Echo.self, scheduler: TestScheduler())
        let last = echo.record(\.last)
        for number in [0, 1, 1, 2, 2, 2, 1] { echo.send(\.number, number) }
        #expect(last.values == [0, 1, 2, 1])
    }

    @Test("accept of the current value sends nothing; of another value, sends it")
    func acceptedRepeatsAreDropped() {
        let state = State<String>("text", initial: "")
        let recorded = Recording<String>()
        let subscription = state.subscribe(recorded)
        defer { subscription.dispose() }
        state.accept("")
        state.accept("a")
        state.accept("a")
        state.accept("")
        #expect(recorded.values == ["", "a", ""])
    }

    @Test("while an observer re-enters, a value is compared with the latest one queued, not the one being delivered")
    func reentrantValuesCompareWithTheQueue() {
        let state = State<Int>("n", initial: 0)
        let recorded = Recording<Int>()
        let recording = state.subscribe(recorded)
        var reacted = false
        let reacting = state.subscribe(onNext: { value in
            guard value == 1, !reacted else { return }
            reacted = true
            state.accept(2)
            state.accept(2)
            state.accept(1)  // equal to the value being delivered, not to the latest (2)
        })
        defer { recording.dispose(); reacting.dispose() }
        state.accept(1)
        #expect(recorded.values == [0, 1, 2, 1])
        #expect(state.value == 1)
    }

    @Test("a state of a type that is not Equatable sends every value")
    func nonEquatableValuesAllGoOut() {
        let state = State<Opaque>("opaque", initial: Opaque(n: 0), codec: ValueCodec(
            schema: ["type": "integer"], decode: { json throws(JSONDecodingError) in Opaque(n: json.intValue ?? 0) },
            encode: { .integer(Int64($0.n)) }))
        let recorded = Recording<Opaque>()
        let subscription = state.subscribe(recorded)
        defer { subscription.dispose() }
        state.accept(Opaque(n: 0))
        state.accept(Opaque(n: 0))
        #expect(recorded.values.map(\.n) == [0, 0, 0])
    }

    @Test("a hosted instance's JSON watchers (vm.output) see no repeated value")
    func hostedWatchersSeeChangesOnly() throws {
        var registry = ViewModelRegistry()
        try registry.register(Echo.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let echo = try host.create(type: "Echo")
        var sent: [JSONValue] = []
        let watching = try echo.observe(output: "last") { sent.append($0) }
        defer { watching.dispose() }
        for number: Int64 in [0, 3, 3, 0] { try echo.send(input: "number", value: .integer(number)) }
        #expect(sent == [3, 0])
    }
}
