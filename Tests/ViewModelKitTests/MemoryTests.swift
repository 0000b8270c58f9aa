import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

/// A view model that is a class, keeps its ports and its action, so tests can watch them go.
final class Keeper: ViewModel {
    static let summary = "Keeps references to test its release."

    struct Ports: ViewModelPorts {
        let value = Input<Int>("A number.")
        let last = State<Int>("The last number.", initial: 0)
        let run = ActionPort<Int, Int>("Echo a number.")
    }

    let ports: Ports
    let action: Action<Int, Int>

    init(ports: Ports, context: Context) {
        self.ports = ports
        // The work refers back to the view model's ports: a cycle only destroy can break.
        action = Action { value in ports.last.asObservable().take(1).map { $0 + value } }
        ports.run.bind(action)
        ports.last.bind(ports.value)
    }
}

@Suite("Destroying an instance releases everything")
struct MemoryTests {
    @Test("after destroy, the view model, its ports, subjects and action are freed")
    func destroyReleasesTheGraph() throws {
        var registry = ViewModelRegistry()
        try registry.register(Keeper.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        weak var keeper: Keeper?
        weak var input: Input<Int>?
        weak var state: State<Int>?
        weak var action: Action<Int, Int>?
        do {
            let instance = try host.create(type: "Keeper")
            let created = try #require(instance.viewModel as? Keeper)
            keeper = created
            input = created.ports.value
            state = created.ports.last
            action = created.action
            _ = try instance.observe(output: "last") { _ in }
            try instance.send(input: "value", value: 4)
            #expect(try executeNow(instance, "run", 1)?.get() == 5)
            try host.destroy(instance.id)
        }
        #expect(keeper == nil)
        #expect(input == nil)
        #expect(state == nil)
        #expect(action == nil)
    }

    @Test("while alive, the host keeps the instance even when nobody holds it")
    func hostKeepsLiveInstances() throws {
        var registry = ViewModelRegistry()
        try registry.register(Keeper.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        weak var keeper: Keeper?
        do { keeper = try host.create(type: "Keeper").viewModel as? Keeper }
        #expect(keeper != nil)
        try host.destroy("keeper-1")
        #expect(keeper == nil)
    }

    @Test("a port bound after its instance was destroyed lets the binding go at once")
    func bindingAfterDestroyIsDisposed() throws {
        var registry = ViewModelRegistry()
        try registry.register(Keeper.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let instance = try host.create(type: "Keeper")
        let keeper = try #require(instance.viewModel as? Keeper)
        try host.destroy(instance.id)
        let late = PublishSubject<Int>()
        keeper.ports.last.bind(late)
        #expect(!late.hasObservers)
        late.onNext(9)
        #expect(keeper.ports.last.value == 0)
    }
}
