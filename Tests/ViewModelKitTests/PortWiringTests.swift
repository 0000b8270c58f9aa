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

    @Test("a codec builds its schema when read: at registration, never for an instance the host makes")
    func codecSchemaIsBuiltOncePerType() throws {
        let codec = SchemaCounting.codec()
        #expect(SchemaCounting.builds.count == 0)
        var registry = ViewModelRegistry()
        try registry.register(SchemaCounting.self)
        let registered = SchemaCounting.builds.count
        #expect(registered > 0)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        for value in 1...3 {
            let instance = try host.create(type: "SchemaCounting")
            try instance.send(input: "value", value: .integer(Int64(value)))
            #expect(try instance.currentValue(output: "last") == .integer(Int64(value)))
        }
        #expect(SchemaCounting.builds.count == registered)
        #expect(codec.schema == ["type": "integer"])
        #expect(SchemaCounting.builds.count == registered + 1)
    }

    @Test("an instance's ports have the summaries of their declarations, whatever order Ports() makes them in")
    func summariesFollowDeclarations() {
        let harness = ViewModelHarness(Reversed.self, args: NoArguments(), services: (), scheduler: TestScheduler())
        #expect(harness.ports.first.summary == "Goes to firstSeen.")
        #expect(harness.ports.second.summary == "Goes to secondSeen.")
        #expect(harness.ports.firstSeen.summary == "The last value of first.")
        #expect(harness.ports.secondSeen.summary == "The last value of second.")
    }
}

/// An input and a state whose codec counts how often its schema is built.
private struct SchemaCounting: ViewModel {
    static let summary = "Counts the builds of its ports' schema."

    /// How many times the codec's schema was built. Only `codecSchemaIsBuiltOncePerType`
    /// makes this type's ports (unsafe only in name: one test, one thread).
    final class Builds {
        var count = 0
    }

    nonisolated(unsafe) static let builds = Builds()

    static func codec() -> ValueCodec<Int> {
        func schema() -> JSONValue {
            builds.count += 1
            return ["type": "integer"]
        }
        return ValueCodec<Int>(
            schema: schema(), decode: { json throws(JSONDecodingError) in try Int(json: json) }, encode: { .integer(Int64($0)) })
    }

    struct Ports: ViewModelPorts {
        let value = Input<Int>("A number.", codec: SchemaCounting.codec())
        let last = State<Int>("The last number.", initial: 0, codec: SchemaCounting.codec())
    }

    init(ports: Ports, context: Context) {
        ports.last.bind(ports.value)
    }
}
