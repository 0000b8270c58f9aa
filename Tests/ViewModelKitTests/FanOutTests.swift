import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit
import ViewModelTesting

/// Counts what happens once per value upstream of the port, and every encoding of a value.
final class Tally: Sendable {
    private let counts = Mutex((sideEffects: 0, encodings: 0))
    var sideEffects: Int { counts.withLock { $0.sideEffects } }
    func sideEffect() { counts.withLock { $0.sideEffects += 1 } }
    /// Encodings of Doubler's `doubled`; only the fan-out test creates Doublers.
    static let encodings = Mutex(0)
}

/// Doubles its input; the chain has a side effect, and `doubled` counts its encodings.
struct Doubler: ViewModel {
    typealias Services = Tally
    static let summary = "Doubles what it is sent."

    struct Ports: ViewModelPorts {
        let value = Input<Int>("A number.")
        let doubled = State<Int>("Twice the last number.", initial: 0, codec: ValueCodec(
            schema: ["type": "integer"],
            decode: { json throws(JSONDecodingError) in try Int(json: json) },
            encode: { value in
                Tally.encodings.withLock { $0 += 1 }
                return value.jsonValue
            }))
        let happened = EventOutput<Int>("Each doubled value, as an event.")
    }

    init(ports: Ports, context: Context) {
        let tally = context.services
        let doubled = ports.value.do(onNext: { _ in tally.sideEffect() }).map { $0 * 2 }
        ports.doubled.bind(doubled)
        ports.happened.bind(ports.doubled.skip(1))
    }
}

@Suite("One upstream subscription, many observers")
struct FanOutTests {
    @Test("three observers share one chain: the side effect runs and the value is encoded once per value")
    func oneSubscriptionManyObservers() throws {
        let tally = Tally()
        var registry = ViewModelRegistry()
        try registry.register(Doubler.self, services: tally)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let doubler = try host.create(type: "Doubler")
        var first: [JSONValue] = [], second: [JSONValue] = [], third: [JSONValue] = [], events: [JSONValue] = []
        let bag = DisposeBag()
        try doubler.observe(output: "doubled") { first.append($0) }.disposed(by: bag)
        try doubler.observe(output: "doubled") { second.append($0) }.disposed(by: bag)
        try doubler.observe(output: "doubled") { third.append($0) }.disposed(by: bag)
        try doubler.observe(output: "happened") { events.append($0) }.disposed(by: bag)
        let encodingsBefore = Tally.encodings.withLock { $0 }

        for value in 1...3 { try doubler.send(input: "value", value: .integer(Int64(value))) }
        #expect(try doubler.currentValue(output: "doubled") == 6)  // cached: no new encoding

        #expect(first == [2, 4, 6])
        #expect(second == first)
        #expect(third == first)
        #expect(events == [2, 4, 6])
        #expect(tally.sideEffects == 3)
        #expect(Tally.encodings.withLock { $0 } - encodingsBefore == 3)
    }

    @Test("a value nobody watches is not encoded until someone asks for it")
    func unwatchedValuesAreNotEncoded() throws {
        let harness = ViewModelHarness(Doubler.self, args: NoArguments(), services: Tally(), scheduler: TestScheduler())
        let doubled = harness.record(\.doubled)
        harness.send(\.value, 5)
        harness.send(\.value, 7)
        #expect(doubled.values == [0, 10, 14])
    }

    @Test("observers see re-entrant values in the order they were emitted")
    func reentrantValuesKeepOneOrder() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var first: [JSONValue] = [], second: [JSONValue] = []
        _ = try counter.observe(output: "count") { value in
            first.append(value)
            // The first observer reacts to 1 by sending another input, mid-delivery.
            if value == 1 { try? counter.send(input: "increment", value: 10) }
        }
        _ = try counter.observe(output: "count") { second.append($0) }
        try counter.send(input: "increment")
        #expect(first == [1, 11])
        #expect(second == [1, 11])
        #expect(try counter.currentValue(output: "count") == 11)
    }

    @Test("nothing reaches an observer after the instance is destroyed")
    func nothingAfterDestroy() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        var seen: [JSONValue] = []
        _ = try counter.observe(output: "count") { seen.append($0) }
        try counter.send(input: "increment")
        try host.destroy(counter.id)
        #expect(seen == [1])
        #expect(kitError { _ = try counter.observe(output: "count") { _ in } } == .unknownInstance(instance: "counter-1"))
    }

    @Test("a state nobody observed keeps its value, and its first observers get it, then every new one")
    func firstObserversOfAnUnobservedState() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        try counter.send(input: "increment", value: 2)
        try counter.send(input: "increment", value: 3)
        #expect(try counter.currentValue(output: "count") == 5)
        var json: [JSONValue] = []
        _ = try counter.observe(output: "count") { json.append($0) }
        let state = State<Int>("Unobserved until now.", initial: 1)
        state.accept(4)
        var typed: [Int] = []
        let subscription = state.subscribe(onNext: { typed.append($0) })
        state.accept(6)
        subscription.dispose()
        try counter.send(input: "decrement")
        #expect(json == [4])
        #expect(try counter.currentValue(output: "count") == 4)
        #expect(typed == [4, 6])
        #expect(state.value == 6)
    }
}
