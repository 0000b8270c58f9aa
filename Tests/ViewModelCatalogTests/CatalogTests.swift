import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
@testable import ViewModelCatalog

@Suite("Catalog: one call registers every type; the types work through a host in JSON")
struct CatalogTests {
    private func makeHost(stateDirectory: String, scheduler: TestScheduler, services: CatalogServices = CatalogServices()) throws -> ViewModelHost {
        let registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: stateDirectory, services: services))
        return ViewModelHost(registry: registry, scheduler: scheduler)
    }

    /// Executes `action` and, once the async work has come back, returns its result.
    private func execute(_ instance: ViewModelInstance, _ action: String, on scheduler: TestScheduler) async throws -> Result<JSONValue, ViewModelError>? {
        var result: Result<JSONValue, ViewModelError>?
        _ = try instance.execute(action: action, value: nil) { result = $0 }
        if result == nil { await settle(scheduler) }
        return result
    }

    @Test("register adds exactly the catalog's types, each described completely")
    func registersEverything() throws {
        let registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: "/nonexistent/never-touched"))
        #expect(registry.names == Catalog.typeNames)
        for description in registry.types {
            #expect(!description.summary.isEmpty)
            #expect(description.args["type"] == "object")
            for input in description.inputs { #expect(!input.summary.isEmpty && input.schema["type"] != nil, "\(description.name).\(input.name)") }
            for output in description.outputs { #expect(!output.summary.isEmpty && output.schema["type"] != nil, "\(description.name).\(output.name)") }
            for action in description.actions {
                #expect(!action.summary.isEmpty && action.input["type"] != nil && action.output["type"] != nil, "\(description.name).\(action.name)")
            }
            // Every published schema compiles (the registry checked), and args accept `{}`
            // unless they have required members.
            let args = try JSONSchema(description.args)
            #expect(args.isValid([:]) == (description.args["required"] == nil), "\(description.name)")
        }
    }

    @Test("registering twice into one registry is refused by name")
    func registeringTwiceFails() throws {
        var registry = ViewModelRegistry()
        let configuration = CatalogConfiguration(stateDirectory: "/nonexistent")
        try Catalog.register(into: &registry, configuration: configuration)
        #expect(throws: ViewModelDefinitionError.self) { try Catalog.register(into: &registry, configuration: configuration) }
    }

    @Test("the protocol's Login session: demo account, latencyMs, loading around the submit")
    func loginThroughTheHost() async throws {
        let scheduler = TestScheduler()
        let host = try makeHost(stateDirectory: "/nonexistent", scheduler: scheduler)
        let login = try host.create(type: "Login", args: ["latencyMs": 300])
        var seen: [String] = []
        for output in ["isLoginAllowed", "isLoading", "loginSuccess", "loginFailure"] {
            _ = try login.observe(output: output) { seen.append("\(output)=\($0)") }
        }
        try login.send(input: "email", value: "demo@example.com")
        try login.send(input: "password", value: "secret")
        var result: Result<JSONValue, ViewModelError>?
        _ = try login.execute(action: "submit", value: nil) { result = $0 }
        #expect(try login.currentValue(output: "isLoading") == true)
        scheduler.advance(to: 300)
        await settle(scheduler)
        #expect(try result?.get() == "demo@example.com")
        #expect(seen == ["isLoginAllowed=true", "isLoading=true", #"loginSuccess="demo@example.com""#, "isLoading=false"])
    }

    @Test("SendList through the host: the upload on disk, a child receipt, closed with its parent")
    func sendListThroughTheHost() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let scheduler = TestScheduler()
        let host = try makeHost(stateDirectory: dir.path + "/vmd", scheduler: scheduler)
        let list = try host.create(type: "SendList")
        var navigated: [JSONValue] = []
        _ = try list.observe(output: "navigate") { navigated.append($0) }
        try list.send(input: "addRecipient", value: "ada@example.com")
        try list.send(input: "message", value: "Hello")
        #expect(throws: ViewModelError.self) { try list.send(input: "addRecipient", value: "  ") }
        let result = try await execute(list, "send", on: scheduler)
        #expect(try result?.get() == ["uploadId": 1, "type": "SendReceipt", "instance": "sendreceipt-1"])
        #expect(navigated == [["type": "SendReceipt", "instance": "sendreceipt-1"]])
        let receipt = try host.instance("sendreceipt-1")
        #expect(receipt.parent == list.id)
        #expect(try receipt.currentValue(output: "message") == "Hello")
        #expect(try receipt.currentValue(output: "recipients") == ["ada@example.com"])
        #expect(try receipt.currentValue(output: "uploadId") == 1)
        let file = try ScratchDirectory.Existing(dir.path + "/vmd")
        #expect(file.contents(of: FileSendStore.fileName) == #"{"id":1,"message":"Hello","recipients":["ada@example.com"]}"# + "\n")
        try host.destroy(list.id)
        #expect(throws: ViewModelError.self) { try host.instance("sendreceipt-1") }
        #expect(host.count == 0)
    }

    @Test("a send that stores but cannot open its receipt says the upload was stored")
    func receiptAtTheInstanceLimit() async throws {
        let scheduler = TestScheduler()
        let store = MemorySendStore()
        let host = try makeHost(stateDirectory: "/nonexistent", scheduler: scheduler, services: CatalogServices(sendStore: store))
        host.maxInstances = 1
        let list = try host.create(type: "SendList")
        try list.send(input: "addRecipient", value: "ada")
        try list.send(input: "message", value: "Hello")
        let result = try await execute(list, "send", on: scheduler)
        guard case .failure(let error) = result else {
            Issue.record("send should fail, got \(String(describing: result))")
            return
        }
        #expect(error.name == "actionFailed")
        #expect(error.message.contains("Sent (upload 1), but the receipt could not be opened: "))
        #expect(await store.stored.count == 1)
    }

    @Test("Follow, Counter and TextField through the host, in JSON")
    func othersThroughTheHost() async throws {
        let scheduler = TestScheduler()
        let host = try makeHost(stateDirectory: "/nonexistent", scheduler: scheduler)
        let follow = try host.create(type: "Follow", args: ["userId": "ada", "latencyMs": 0, "initial": false])
        await settle(scheduler)
        #expect(try await execute(follow, "toggle", on: scheduler)?.get() == true)
        #expect(try follow.currentValue(output: "isFollowing") == true)

        let counter = try host.create(type: "Counter", args: ["start": 5])
        try counter.send(input: "increment", value: 2)
        try counter.send(input: "decrement")
        #expect(try counter.currentValue(output: "count") == 6)
        #expect(try await execute(counter, "reset", on: scheduler)?.get() == 0)

        let field = try host.create(type: "TextField")
        try field.send(input: "type", value: "hé")
        try field.send(input: "set", value: "hello")
        #expect(try field.currentValue(output: "text") == "hello")
        #expect(try field.currentValue(output: "length") == 5)
    }
}
