import ReactiveCore
import Testing
@testable import ViewModelKit

/// A `Ports` with a weak port property (never set, so `nil`).
struct WeakPorts: ViewModel {
    static let summary = "A port property that is weak."

    struct Ports: ViewModelPorts {
        let kept = Input<Int>("A port the struct keeps.")
        weak var lost: Input<Int>?
    }

    init(ports: Ports, context: Context) {}
}

/// A `Ports` that is a class: reflected with `Mirror`, its stored properties as ports.
struct ClassPorts: ViewModel {
    static let summary = "Ports declared as a class."

    final class Ports: ViewModelPorts {
        let value = Input<Int>("A value.")
        let shown = State<Int>("What is shown.", initial: 0)
        required init() {}
    }

    init(ports: Ports, context: Context) {}
}

@Suite("Finding the ports of a Ports value")
struct PortReflectionTests {
    private func summary(_ found: [PortReflection.Found]) -> [String] {
        found.map { "\($0.name) \(ObjectIdentifier($0.port).hashValue)" }
    }

    private func fieldsAgreeWithMirror<Ports: ViewModelPorts>(_ ports: Ports) throws {
        let fields = try #require(PortReflection.fieldPorts(of: ports))
        let mirrored = try PortReflection.mirroredPorts(of: ports, typeName: "Probe")
        #expect(!fields.isEmpty)
        #expect(summary(fields) == summary(mirrored))
    }

    @Test("a struct's ports are read through its fields as Mirror finds them: same names, same objects, same order")
    func fieldsMatchMirror() throws {
        try fieldsAgreeWithMirror(Counter.Ports())
        try fieldsAgreeWithMirror(Login.Ports())
        try fieldsAgreeWithMirror(Reversed.Ports())
        try fieldsAgreeWithMirror(SharedPorts.Ports())
        try fieldsAgreeWithMirror(ExistentialPorts.Ports())
    }

    @Test("a port behind an existential property is found through its field")
    func existentialFieldsAreRead() throws {
        let ports = ExistentialPorts.Ports()
        let found = try #require(PortReflection.fieldPorts(of: ports))
        #expect(found.map(\.name) == ["plain", "hidden"])
        #expect(found.last.map { ObjectIdentifier($0.port) } == ObjectIdentifier(ports.hidden as AnyObject))
    }

    @Test("a property that is not a port is left to Mirror, which names it in the definition error")
    func strayPropertiesFallBackToMirror() {
        #expect(PortReflection.fieldPorts(of: Stray.Ports()) == nil)
        #expect(throws: ViewModelDefinitionError(
            type: "Stray", problem: "property 'note' of its Ports is a String, not an Input, State, EventOutput or ActionPort"
        )) {
            try PortReflection.ports(of: Stray.Ports(), typeName: "Stray")
        }
    }

    @Test("a weak port property is left to Mirror, which refuses its nil")
    func weakPropertiesFallBackToMirror() {
        #expect(PortReflection.fieldPorts(of: WeakPorts.Ports()) == nil)
        #expect(throws: ViewModelDefinitionError(
            type: "WeakPorts",
            problem: "property 'lost' of its Ports is a Optional<Input<Int>>, not an Input, State, EventOutput or ActionPort"
        )) {
            try PortReflection.ports(of: WeakPorts.Ports(), typeName: "WeakPorts")
        }
    }

    @Test("a Ports class is reflected with Mirror and registers with its stored ports")
    func classPortsAreMirrored() throws {
        let ports = ClassPorts.Ports()
        #expect(PortReflection.fieldPorts(of: ports) == nil)
        let found = try PortReflection.ports(of: ports, typeName: "ClassPorts")
        #expect(found.map(\.name) == ["value", "shown"])
        #expect(found.map { ObjectIdentifier($0.port) } == [ObjectIdentifier(ports.value), ObjectIdentifier(ports.shown)])
        var registry = ViewModelRegistry()
        try registry.register(ClassPorts.self)
        #expect(registry.type(named: "ClassPorts")?.inputs.map(\.name) == ["value"])
    }
}
