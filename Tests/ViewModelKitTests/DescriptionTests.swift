import JSONCore
import ReactiveTesting
import Testing
@testable import ViewModelKit

@Suite("Describing view-model types from their declaration")
struct DescriptionTests {
    /// Counter's description in the protocol's example session, byte for byte.
    static let protocolCounter = #"{"name":"Counter","summary":"A number you can step up and down.","args":{"type":"object","properties":{"start":{"type":"integer","default":0}},"additionalProperties":false},"inputs":[{"name":"increment","summary":"Add step to the count.","schema":{"type":"integer","default":1}},{"name":"decrement","summary":"Subtract one.","schema":{"type":"null"}},{"name":"set","summary":"Replace the count.","schema":{"type":"integer"}}],"outputs":[{"name":"count","summary":"The current count.","kind":"state","schema":{"type":"integer"}}],"actions":[{"name":"reset","summary":"Set the count to 0.","input":{"type":"null"},"output":{"type":"integer"}}]}"#

    /// Login's inputs, outputs and actions in the protocol's example session (its args are
    /// the catalog's).
    static let protocolLoginPorts = #"{"inputs":[{"name":"email","summary":"What the user typed as email.","schema":{"type":"string"}},{"name":"password","summary":"What the user typed as password.","schema":{"type":"string"}}],"outputs":[{"name":"isLoginAllowed","summary":"The email looks like an address and the password has at least 6 characters.","kind":"state","schema":{"type":"boolean"}},{"name":"isLoading","summary":"submit is running.","kind":"state","schema":{"type":"boolean"}},{"name":"loginSuccess","summary":"The signed-in user.","kind":"event","schema":{"type":"string"}},{"name":"loginFailure","summary":"Why the login failed, for a person.","kind":"event","schema":{"type":"string"}}],"actions":[{"name":"submit","summary":"Sign in with the typed email and password.","input":{"type":"null"},"output":{"type":"string"}}]}"#

    @Test("Counter's description is the protocol's example, byte for byte")
    func counterMatchesProtocol() throws {
        let description = try ViewModelRegistry.describe(Counter.self)
        #expect(description.jsonValue.encodedString() == Self.protocolCounter)
    }

    @Test("Login's ports are described as the protocol's example says")
    func loginMatchesProtocol() throws {
        let description = try ViewModelRegistry.describe(Login.self)
        guard case .object(var object) = description.jsonValue else {
            Issue.record("not an object")
            return
        }
        for key in ["name", "summary", "args"] { _ = object.removeValue(forKey: key) }
        #expect(JSONValue.object(object).encodedString() == Self.protocolLoginPorts)
        #expect(description.args == ["type": "object", "properties": [:], "additionalProperties": false])
        #expect(description.outputNames(.state) == ["isLoginAllowed", "isLoading"])
        #expect(description.outputNames(.event) == ["loginSuccess", "loginFailure"])
    }

    @Test("registering describes a type without creating an instance or calling a service")
    func describingTouchesNoService() throws {
        var registry = ViewModelRegistry()
        try registry.register(Login.self, services: UntouchableAuth())
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        #expect(host.types.map(\.name) == ["Login"])
        #expect(host.count == 0)
    }

    @Test("vm.types lists types sorted by name")
    func typesAreSorted() throws {
        var registry = ViewModelRegistry()
        try registry.register(Login.self, services: DemoAuth())
        try registry.register(Counter.self)
        #expect(registry.types.map(\.name) == ["Counter", "Login"])
        #expect(registry.names == ["Counter", "Login"])
        #expect(registry.type(named: "Counter")?.inputs.map(\.name) == ["increment", "decrement", "set"])
        #expect(registry.type(named: "Nope") == nil)
    }

    @Test("a second registration under the same name is refused")
    func duplicateNamesAreRefused() throws {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        #expect(throws: ViewModelDefinitionError(type: "Counter", problem: "a type of that name is already registered")) {
            try registry.register(Counter.self)
        }
    }

    @Test("a Ports property that is not a port is a declaration error naming it")
    func strayPropertiesAreRefused() {
        var registry = ViewModelRegistry()
        #expect {
            try registry.register(Stray.self)
        } throws: { error in
            "\(error)".contains("property 'note' of its Ports is a String")
        }
    }

    @Test("a published schema the validator cannot compile is a declaration error")
    func invalidSchemasAreRefused() {
        var registry = ViewModelRegistry()
        #expect {
            try registry.register(BadSchema.self)
        } throws: { error in
            "\(error)".contains("input 'value'")
        }
    }

    @Test("JSON Pointers escape ~ and / and index arrays")
    func jsonPointers() {
        #expect(JSONPath.root.jsonPointer == "")
        #expect(JSONPath([.key("a/b"), .index(2), .key("c~d")]).jsonPointer == "/a~1b/2/c~0d")
    }
}

/// Ports with a stray stored property.
struct Stray: ViewModel {
    static let summary = "Has a property that is not a port."
    struct Ports: ViewModelPorts {
        let value = Input<Int>("A value.")
        let note = "not a port"
    }
    init(ports: Ports, context: Context) {}
}

/// An input whose custom schema is malformed (`type` must be a string or an array).
struct BadSchema: ViewModel {
    static let summary = "Publishes a broken schema."
    struct Ports: ViewModelPorts {
        let value = Input<Int>("A value.", codec: ValueCodec<Int>.json.withSchema(["type": 42]))
    }
    init(ports: Ports, context: Context) {}
}
