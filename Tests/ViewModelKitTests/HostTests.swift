import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

/// A host serving Counter and Login (with `auth`) on a virtual-time scheduler.
func makeHost(auth: any Authenticating = DemoAuth(), maxInstances: Int = 100) throws -> (ViewModelHost, TestScheduler) {
    var registry = ViewModelRegistry()
    try registry.register(Counter.self)
    try registry.register(Login.self, services: auth)
    let scheduler = TestScheduler()
    return (ViewModelHost(registry: registry, scheduler: scheduler, maxInstances: maxInstances), scheduler)
}

/// The error `body` throws, if it is a ViewModelError.
func kitError(_ body: () throws -> Void) -> ViewModelError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ViewModelError
    }
}

@Suite("Hosting view models end to end, in JSON")
struct HostTests {
    @Test("create, send, get, observe, execute and destroy a Counter as the protocol's session does")
    func counterSession() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter", args: ["start": 5])
        #expect(counter.id == "counter-1")
        #expect(try counter.currentValue(output: "count") == 5)
        var seen: [JSONValue] = []
        let watching = try counter.observe(output: "count") { seen.append($0) }
        try counter.send(input: "increment", value: 2)
        try counter.send(input: "increment")  // omitted: the schema default, 1
        #expect(try counter.currentValue(output: "count") == 8)
        var result: Result<JSONValue, ViewModelError>?
        _ = try counter.execute(action: "reset") { result = $0 }
        #expect(try result?.get() == 0)
        try counter.send(input: "decrement")
        try counter.send(input: "set", value: 10)
        #expect(seen == [7, 8, 0, -1, 10])
        watching.dispose()
        try counter.send(input: "increment")
        #expect(seen.count == 5)

        var closed: [String] = []
        host.onClose = { instance, reason in closed.append("\(instance.id) \(reason.rawValue)") }
        try host.destroy("counter-1")
        #expect(closed == ["counter-1 destroyed"])
        #expect(host.count == 0)
        #expect(!counter.isAlive)
        #expect(kitError { try counter.send(input: "increment") } == .unknownInstance(instance: "counter-1"))
    }

    @Test("omitted args take their defaults")
    func defaultArgs() throws {
        let (host, _) = try makeHost()
        #expect(try host.create(type: "Counter").currentValue(output: "count") == 0)
    }

    @Test("generated ids count per type and skip ids a client took")
    func generatedIDs() throws {
        let (host, _) = try makeHost()
        try host.create(type: "Counter", id: "counter-2")
        #expect(try host.create(type: "Counter").id == "counter-1")
        #expect(try host.create(type: "Counter").id == "counter-3")
        #expect(try host.create(type: "Login").id == "login-1")
        #expect(host.instances.map(\.id) == ["counter-2", "counter-1", "counter-3", "login-1"])
        #expect(host.instances.map(\.typeName) == ["Counter", "Counter", "Counter", "Login"])
        #expect(try host.instance("login-1").typeName == "Login")
    }

    @Test("a generated id skips one a client took after ids were generated")
    func generatedIDsSkipALaterClientID() throws {
        let (host, _) = try makeHost()
        #expect(try host.create(type: "Counter").id == "counter-1")
        try host.create(type: "Counter", id: "counter-2")
        #expect(try host.create(type: "Counter").id == "counter-3")
        try host.destroy("counter-2")
        try host.create(type: "Counter", id: "counter-4")
        #expect(try host.create(type: "Counter").id == "counter-5")
    }

    @Test("two types whose names differ only in case never get the same generated id")
    func generatedIDsOfTypesSharingAPrefix() throws {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        try registry.register(ShoutedCounter.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        #expect(try host.create(type: "Counter").id == "counter-1")
        #expect(try host.create(type: "COUNTER").id == "counter-2")
        #expect(try host.create(type: "Counter").id == "counter-3")
        #expect(host.instances.map(\.typeName) == ["Counter", "COUNTER", "Counter"])
    }

    @Test("outputNames lists outputs by kind, in declaration order")
    func outputNamesByKind() throws {
        let (host, _) = try makeHost()
        let login = try host.create(type: "Login")
        #expect(login.outputNames() == ["isLoginAllowed", "isLoading", "loginSuccess", "loginFailure"])
        #expect(login.outputNames(.state) == ["isLoginAllowed", "isLoading"])
        #expect(try login.outputKind("loginSuccess") == .event)
    }
}

@Suite("Every host error, with the wire's name, data and message")
struct HostErrorTests {
    @Test("unknownType lists the types served")
    func unknownType() throws {
        let (host, _) = try makeHost()
        let error = kitError { try host.create(type: "Conter") }
        #expect(error == .unknownType(type: "Conter", known: ["Counter", "Login"]))
        #expect(error?.message == #"Unknown type "Conter"; the types are Counter, Login (vm.types describes them)."#)
        #expect(error?.data == ["name": "unknownType", "type": "Conter"])
        #expect(kitError { _ = try host.type(named: "Conter") } == error)
    }

    @Test("unknownInstance for lookups, destroys and parents")
    func unknownInstance() throws {
        let (host, _) = try makeHost()
        let expected = ViewModelError.unknownInstance(instance: "counter-9")
        #expect(kitError { _ = try host.instance("counter-9") } == expected)
        #expect(kitError { try host.destroy("counter-9") } == expected)
        #expect(kitError { try host.create(type: "Counter", parent: "counter-9") } == expected)
        #expect(expected.message == #"No instance "counter-9"; vm.list shows the live instances."#)
        #expect(expected.data == ["name": "unknownInstance", "instance": "counter-9"])
    }

    @Test("unknownInput names the inputs there are")
    func unknownInput() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        let error = kitError { try counter.send(input: "incremnt", value: 1) }
        #expect(error?.message == #"Counter has no input "incremnt"; its inputs are increment, decrement, set."#)
        #expect(error?.data == ["name": "unknownInput", "instance": "counter-1", "input": "incremnt"])
    }

    @Test("unknownOutput for get and observe names the outputs there are")
    func unknownOutput() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        let error = kitError { _ = try counter.currentValue(output: "cont") }
        #expect(error?.message == #"Counter has no output "cont"; its outputs are count."#)
        #expect(error?.data == ["name": "unknownOutput", "instance": "counter-1", "output": "cont"])
        #expect(kitError { _ = try counter.observe(output: "cont") { _ in } } == error)
    }

    @Test("unknownAction names the actions there are")
    func unknownAction() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        let error = kitError { _ = try counter.execute(action: "rest") { _ in } }
        #expect(error?.message == #"Counter has no action "rest"; its actions are reset."#)
        #expect(error?.data == ["name": "unknownAction", "instance": "counter-1", "action": "rest"])
    }

    @Test("invalidValue for an input says what was expected and got, at which path")
    func invalidInputValue() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        let error = kitError { try counter.send(input: "set", value: "ten") }
        #expect(error?.message == #"Invalid value for input "set" of counter-1: expected integer, got string."#)
        #expect(error?.data == ["name": "invalidValue", "path": "", "expected": "integer", "got": "string"])
        #expect(kitError { try counter.send(input: "set") }?.data["got"] == "null")
        #expect(try counter.currentValue(output: "count") == 0)
    }

    @Test("invalidValue for args points inside them; nothing is created")
    func invalidArgs() throws {
        let (host, _) = try makeHost()
        let error = kitError { try host.create(type: "Counter", args: ["start": "five"]) }
        #expect(error?.message == #"Invalid args for Counter at /start: expected integer, got string."#)
        #expect(error?.data == ["name": "invalidValue", "path": "/start", "expected": "integer", "got": "string"])
        #expect(kitError { try host.create(type: "Counter", args: ["stat": 1]) }?.name == "invalidValue")
        #expect(kitError { try host.create(type: "Counter", args: 3) }?.data["path"] == "")
        #expect(host.count == 0)
        #expect(try host.create(type: "Counter").id == "counter-1")
    }

    @Test("invalidValue for an action's value")
    func invalidActionValue() throws {
        let (host, _) = try makeHost()
        let counter = try host.create(type: "Counter")
        let error = kitError { _ = try counter.execute(action: "reset", value: 1) { _ in } }
        #expect(error == .invalidValue(.action("reset", instance: "counter-1"), path: .root, expected: "null", got: "integer"))
        #expect(error?.message == #"Invalid value for action "reset" of counter-1: expected null, got integer."#)
    }

    @Test("actionNotEnabled answers the completion while the input is not valid")
    func actionNotEnabled() throws {
        let (host, _) = try makeHost()
        let login = try host.create(type: "Login")
        var result: Result<JSONValue, ViewModelError>?
        _ = try login.execute(action: "submit") { result = $0 }
        let expected = ViewModelError.actionNotEnabled(instance: "login-1", action: "submit")
        #expect(result.map { if case .failure(let error) = $0 { error == expected } else { false } } == true)
        #expect(expected.message == #"Action "submit" of login-1 is not enabled now: it is running, or its input is not valid yet."#)
        #expect(expected.data == ["name": "actionNotEnabled", "instance": "login-1", "action": "submit"])
    }

    @Test("actionFailed carries the service's message and data")
    func actionFailedShape() {
        let error = ViewModelError.actionFailed(instance: "login-1", action: "submit", message: "Wrong email or password.", data: ["reason": "badCredentials"])
        #expect(error.message == #"Action "submit" of login-1 failed: Wrong email or password."#)
        #expect(error.data == [
            "name": "actionFailed", "instance": "login-1", "action": "submit",
            "error": ["message": "Wrong email or password.", "reason": "badCredentials"],
        ])
    }

    @Test("instanceExists for a taken id")
    func instanceExists() throws {
        let (host, _) = try makeHost()
        try host.create(type: "Counter", id: "c1")
        let error = kitError { try host.create(type: "Login", id: "c1") }
        #expect(error?.message == #"An instance "c1" already exists; choose another id or omit id."#)
        #expect(error?.data == ["name": "instanceExists", "instance": "c1"])
    }

    @Test("notStateOutput for vm.get of an event output")
    func notStateOutput() throws {
        let (host, _) = try makeHost()
        let login = try host.create(type: "Login")
        let error = kitError { _ = try login.currentValue(output: "loginSuccess") }
        #expect(error?.message == #"Output "loginSuccess" of login-1 is an event output and has no current value; watch it with vm.subscribe."#)
        #expect(error?.data == ["name": "notStateOutput", "instance": "login-1", "output": "loginSuccess"])
    }

    @Test("limitReached once maxInstances live; destroying frees a place")
    func limitReached() throws {
        let (host, _) = try makeHost(maxInstances: 2)
        try host.create(type: "Counter")
        try host.create(type: "Counter")
        let error = kitError { try host.create(type: "Counter") }
        #expect(error?.message == "Limit maxInstances (2) reached; destroy instances or restart vmd with a larger --max-instances.")
        #expect(error?.data == ["name": "limitReached", "limit": "maxInstances", "value": 2])
        try host.destroy("counter-1")
        #expect(try host.create(type: "Counter").id == "counter-3")  // numbers keep counting
    }
}

/// A view model whose name differs from Counter's only in case: its generated ids have
/// Counter's prefix (`counter-`).
private struct ShoutedCounter: ViewModel {
    static let typeName = "COUNTER"
    static let summary = "Counter's name, upper-cased."

    struct Ports: ViewModelPorts {
        let count = State<Int>("Always 0.", initial: 0)
    }

    init(ports: Ports, context: Context) {}
}
