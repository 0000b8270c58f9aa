import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

/// Opens a receipt named after its input, `receipt-<name>`: an untyped child through `open`,
/// a typed one through `openTyped`.
struct NamingOpener: ViewModel {
    static let summary = "Opens receipts under ids it chooses."

    struct Ports: ViewModelPorts {
        let open = ActionPort<String, String>("Open receipt NAME; returns its instance id.")
        let openTyped = ActionPort<String, String>("Open receipt NAME through a typed handle; returns its id.")
    }

    init(ports: Ports, context: Context) {
        ports.open.bind(Action<String, String> { name in
            Observable.deferred { .just(try context.createChild(type: "Receipt", args: ["note": .string(name)], id: "receipt-" + name)) }
        })
        ports.openTyped.bind(Action<String, String> { name in
            Observable.deferred { .just(try context.createChild(Receipt.self, id: "receipt-" + name).id) }
        })
    }
}

@Suite("A view model gives its children ids")
struct ChildIDTests {
    private func host() throws -> ViewModelHost {
        var registry = ViewModelRegistry()
        try registry.register(NamingOpener.self)
        try registry.register(Receipt.self)
        return ViewModelHost(registry: registry, scheduler: TestScheduler())
    }

    @Test("createChild with an id makes the child under that id, typed or not, with its parent")
    func childGetsTheGivenID() throws {
        let host = try host()
        let opener = try host.create(type: "NamingOpener", id: "opener")
        #expect(try executeNow(opener, "open", "general")?.get() == "receipt-general")
        #expect(try executeNow(opener, "openTyped", "random")?.get() == "receipt-random")
        #expect(host.instances.map { "\($0.id)<\($0.parent ?? "-")" } == ["opener<-", "receipt-general<opener", "receipt-random<opener"])
        #expect(try host.instance("receipt-general").currentValue(output: "note") == "general")
    }

    @Test("an id in use fails the action with instanceExists and creates nothing; the host's rule refuses others")
    func takenOrRefusedIDsFail() throws {
        let host = try host()
        let opener = try host.create(type: "NamingOpener")
        _ = try executeNow(opener, "open", "general")
        let taken = ViewModelError.instanceExists(instance: "receipt-general")
        let again = try executeNow(opener, "openTyped", "general")
        #expect(again.map { if case .failure(.actionFailed(_, _, let message, _)) = $0 { message == taken.message } else { false } } == true)
        host.childIDRule = ("no spaces", { !$0.contains(" ") })
        let refused = try executeNow(opener, "open", "a b")
        #expect(refused.map { if case .failure(.actionFailed(_, _, let message, _)) = $0 { message.contains("Invalid id for a child Receipt: expected no spaces") } else { false } } == true)
        #expect(host.count == 2)
    }

    @Test("the harness builds the child under the given id and refuses one a live child has")
    func harnessUsesTheGivenID() throws {
        let harness = try ViewModelHarness(NamingOpener.self, scheduler: TestScheduler())
        #expect(harness.execute(\.openTyped, "general").values == ["receipt-general"])
        #expect(harness.child(Receipt.self, id: "receipt-general") != nil)
        #expect(harness.execute(\.open, "other").values == ["receipt-other"])
        #expect(harness.openedChildren.map(\.id) == ["receipt-general", "receipt-other"])
        let again = harness.execute(\.openTyped, "general").error as? ActionError
        #expect(again?.underlying as? ViewModelError == .instanceExists(instance: "receipt-general"))
    }
}
