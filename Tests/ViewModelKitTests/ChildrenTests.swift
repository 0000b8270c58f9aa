import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

/// Opens a `Receipt` scene when `open` runs, like SendList's `send`, and announces it.
struct Opener: ViewModel {
    static let summary = "Opens receipts."

    struct Ports: ViewModelPorts {
        let open = ActionPort<Void, String>("Open a receipt; returns its instance id.")
        let navigate = EventOutput<JSONValue>("The scene opened: {type, instance}.")
    }

    init(ports: Ports, context: Context) {
        let open = Action<Void, String> {
            Observable.deferred { .just(try context.createChild(type: "Receipt", args: ["note": "sent"])) }
        }
        ports.open.bind(open)
        ports.navigate.bind(open.elements.map { ["type": "Receipt", "instance": .string($0)] })
    }
}

/// The child scene.
struct Receipt: ViewModel {
    static let summary = "Shows what was sent."

    struct Arguments: JSONConvertible {
        var note: String
        init(json: JSONValue) throws(JSONDecodingError) { note = try JSONObjectDecoder(json).decode("note", default: "") }
        var jsonValue: JSONValue { ["note": .string(note)] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["note": ["type": "string", "default": ""]]) }
    }

    struct Ports: ViewModelPorts {
        let note = State<String>("What was sent.", initial: "")
    }

    init(ports: Ports, context: Context) {
        ports.note.accept(context.args.note)
    }
}

func makeOpenerHost(maxInstances: Int = 100) throws -> ViewModelHost {
    var registry = ViewModelRegistry()
    try registry.register(Opener.self)
    try registry.register(Receipt.self)
    return ViewModelHost(registry: registry, scheduler: TestScheduler(), maxInstances: maxInstances)
}

/// Executes `action` and returns its synchronous result.
func executeNow(_ instance: ViewModelInstance, _ action: String, _ value: JSONValue? = nil) throws -> Result<JSONValue, ViewModelError>? {
    var result: Result<JSONValue, ViewModelError>?
    _ = try instance.execute(action: action, value: value) { result = $0 }
    return result
}

@Suite("Children open from an action and close with their parent")
struct ChildrenTests {
    @Test("an action opens a child, announces it, and the child knows its parent")
    func actionOpensChild() throws {
        let host = try makeOpenerHost()
        let opener = try host.create(type: "Opener")
        var announced: [JSONValue] = []
        _ = try opener.observe(output: "navigate") { announced.append($0) }
        #expect(try executeNow(opener, "open")?.get() == "receipt-1")
        #expect(announced == [["type": "Receipt", "instance": "receipt-1"]])
        let receipt = try host.instance("receipt-1")
        #expect(receipt.parent == "opener-1")
        #expect(opener.children == ["receipt-1"])
        #expect(try receipt.currentValue(output: "note") == "sent")
        #expect(host.instances.map { "\($0.id)<\($0.parent ?? "-")" } == ["opener-1<-", "receipt-1<opener-1"])
    }

    @Test("destroying a parent closes its children first, as parentDestroyed")
    func childrenCloseFirst() throws {
        let host = try makeOpenerHost()
        let opener = try host.create(type: "Opener")
        _ = try executeNow(opener, "open")
        _ = try executeNow(opener, "open")
        var closed: [String] = []
        host.onClose = { instance, reason in closed.append("\(instance.id) \(reason.rawValue)") }
        try host.destroy("opener-1")
        #expect(closed == ["receipt-1 parentDestroyed", "receipt-2 parentDestroyed", "opener-1 destroyed"])
        #expect(host.count == 0)
    }

    @Test("destroying a child alone detaches it from its parent")
    func childAlone() throws {
        let host = try makeOpenerHost()
        let opener = try host.create(type: "Opener")
        _ = try executeNow(opener, "open")
        try host.destroy("receipt-1")
        #expect(opener.children.isEmpty)
        #expect(host.instances.map(\.id) == ["opener-1"])
    }

    @Test("children count toward maxInstances; a refused child fails the action")
    func childrenCountTowardLimit() throws {
        let host = try makeOpenerHost(maxInstances: 1)
        let opener = try host.create(type: "Opener")
        let result = try executeNow(opener, "open")
        let limit = ViewModelError.limitReached(limit: "maxInstances", value: 1)
        #expect(result.map { if case .failure(.actionFailed(_, _, let message, let data)) = $0 { message == limit.message && data == limit.data } else { false } } == true)
        #expect(host.count == 1)
    }

    @Test("at shutdown every instance closes with reason shutdown, children first")
    func shutdownClosesEverything() throws {
        let host = try makeOpenerHost()
        let opener = try host.create(type: "Opener")
        _ = try executeNow(opener, "open")
        try host.create(type: "Receipt")
        var closed: [String] = []
        host.onClose = { instance, reason in closed.append("\(instance.id) \(reason.rawValue)") }
        host.destroyAll(reason: .shutdown)
        #expect(closed == ["receipt-1 shutdown", "opener-1 shutdown", "receipt-2 shutdown"])
        #expect(host.count == 0)
    }

    @Test("the harness records children instead of creating them")
    func harnessRecordsChildren() throws {
        let harness = try ViewModelHarness(Opener.self, scheduler: TestScheduler())
        let navigate = harness.record(\.navigate)
        let opened = harness.execute(\.open)
        #expect(opened.values == ["receipt-1"])
        #expect(navigate.values == [["type": "Receipt", "instance": "receipt-1"]])
        #expect(harness.openedChildren == [.init(type: "Receipt", args: ["note": "sent"], id: "receipt-1")])
    }
}
