import JSONCore
import Testing
@testable import ViewModelKit

/// A view model whose ports a linked client names: one of each kind, a custom codec, and a
/// computed port that has no wire name.
struct StepCounter: ViewModel {
    static let summary = "Counts in steps; an omitted step is 1."

    struct Ports: ViewModelPorts {
        let step = Input<Int>("The step; null means 1.", codec: ValueCodec(
            schema: ["type": ["integer", "null"]],
            decode: { json throws(JSONDecodingError) in json.isNull ? 1 : try Int(json: json) },
            encode: { .integer(Int64($0)) }))
        let count = State<Int>("The count.", initial: 0)
        let overflowed = EventOutput<String>("Why the count stopped.")
        let reset = ActionPort<Void, Int>("Back to 0; returns it.")

        /// Made anew on each read: not one of the declared ports.
        var shadow: State<Int> { State<Int>("Not stored.", initial: 0) }
    }

    init(ports: Ports, context: Context) {}
}

/// A `Ports` with a property that is not a port: registering it fails, and so does naming its ports.
struct LabelledPorts: ViewModel {
    static let summary = "Ports with a label."

    struct Ports: ViewModelPorts {
        let label = "not a port"
        let count = State<Int>("The count.", initial: 0)
    }

    init(ports: Ports, context: Context) {}
}

/// What a linked client (ViewModelClient) reads off a view model's own `Ports`: each key
/// path's wire name and the codec the port was declared with.
@Suite("Declared ports by key path")
struct DeclaredPortsTests {
    @Test("each key path gives its property's name and the codec it was declared with")
    func namesAndCodecs() throws {
        let ports = try DeclaredPorts<StepCounter>()
        let step = try ports.input(\.step)
        #expect(step.name == "step")
        #expect(step.codec.encoded(3) == 3)
        #expect(try step.codec.decoded(.null) == 1, "Int's own codec would refuse null")
        let count = try ports.state(\.count)
        #expect(count.name == "count")
        #expect(try count.codec.decoded(41) == 41)
        let overflowed = try ports.event(\.overflowed)
        #expect(overflowed.name == "overflowed")
        #expect(try overflowed.codec.decoded("too big") == "too big")
        let reset = try ports.action(\.reset)
        #expect(reset.name == "reset")
        #expect(reset.codec.input.encoded(()) == .null)
        #expect(try reset.codec.output.decoded(0) == 0)
    }

    @Test("a decoded value the codec refuses throws the codec's error")
    func refusedValueThrows() throws {
        let count = try DeclaredPorts<StepCounter>().state(\.count)
        #expect(throws: JSONDecodingError.self) { try count.codec.decoded("seven") }
    }

    @Test("a computed port has no wire name: naming it throws a definition error")
    func computedPortIsRefused() throws {
        let ports = try DeclaredPorts<StepCounter>()
        let error = #expect(throws: ViewModelDefinitionError.self) { try ports.state(\.shadow) }
        #expect(error?.problem.contains("not a stored port") == true)
    }

    @Test("a Ports the registry refuses is refused as the registry would")
    func undeclarablePortsAreRefused() {
        let error = #expect(throws: ViewModelDefinitionError.self) { try DeclaredPorts<LabelledPorts>() }
        #expect(error?.problem.contains("'label'") == true)
    }

    @Test("the facts a layout shares keep no codec; the probe's own ports did")
    func sharedFactsKeepNoCodec() throws {
        let (layout, found) = try PortLayout.learn(StepCounter.self)
        #expect(found.count == 4)
        #expect(found.allSatisfy { $0.port.facts.declaredCodec != nil })
        #expect(layout.facts.map(\.name) == ["step", "count", "overflowed", "reset"])
        #expect(layout.facts.allSatisfy { $0.declaredCodec == nil })
    }
}
