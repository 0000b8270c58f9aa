import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

/// Ports whose hand-written `init` creates them in the reverse of their declaration order.
struct Reversed: ViewModel {
    static let summary = "Two inputs, each echoed by its own state."

    struct Ports: ViewModelPorts {
        let first: Input<Int>
        let second: Input<Int>
        let firstSeen: State<Int>
        let secondSeen: State<Int>

        init() {
            secondSeen = State("The last value of second.", initial: 0)
            firstSeen = State("The last value of first.", initial: 0)
            second = Input("Goes to secondSeen.")
            first = Input("Goes to firstSeen.")
        }
    }

    init(ports: Ports, context: Context) {
        ports.firstSeen.bind(ports.first)
        ports.secondSeen.bind(ports.second)
    }
}

@Suite("Wiring ports by their declaration, whatever order Ports() creates them in")
struct PortWiringTests {
    @Test("the host wires ports created out of declaration order by their property names")
    func hostWiresByName() throws {
        var registry = ViewModelRegistry()
        try registry.register(Reversed.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        #expect(try host.type(named: "Reversed").inputs.map(\.name) == ["first", "second"])
        for _ in 0..<2 {
            let instance = try host.create(type: "Reversed")
            try instance.send(input: "first", value: 1)
            try instance.send(input: "second", value: 2)
            #expect(try instance.currentValue(output: "firstSeen") == 1)
            #expect(try instance.currentValue(output: "secondSeen") == 2)
        }
    }

    @Test("the harness wires the same way: each port learns its own wire name")
    func harnessWiresByName() {
        let harness = ViewModelHarness(Reversed.self, args: NoArguments(), services: (), scheduler: TestScheduler())
        #expect(harness.ports.first.wireName == "first")
        #expect(harness.ports.second.wireName == "second")
        #expect(harness.ports.firstSeen.wireName == "firstSeen")
        #expect(harness.ports.secondSeen.wireName == "secondSeen")
        let seen = harness.record(\.secondSeen)
        harness.send(\.second, 7)
        #expect(seen.values == [0, 7])
    }

    @Test("a codec builds its schema when the schema is read, not when the codec is made")
    func codecSchemaIsLazy() {
        final class Builds { var count = 0 }
        let builds = Builds()
        func schema() -> JSONValue {
            builds.count += 1
            return ["type": "integer"]
        }
        let codec = ValueCodec<Int>(
            schema: schema(), decode: { json throws(JSONDecodingError) in try Int(json: json) }, encode: { .integer(Int64($0)) })
        let input = Input<Int>("Counts schema builds.", codec: codec)
        input.send(1)
        #expect(builds.count == 0)
        #expect(codec.schema == ["type": "integer"])
        #expect(builds.count == 1)
    }
}
