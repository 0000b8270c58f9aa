import JSONCore
import ReactiveCore
import Testing
import VMServer
import VMTestSupport
import ViewModelKit

/// A child scene: a lamp that announces itself while it is built.
struct Lamp: ViewModel {
    static let summary = "A lamp, for the parent/child server tests."

    struct Ports: ViewModelPorts {
        let toggle = Input<Void>("Switch the lamp.")
        let isOn = State<Bool>("The lamp is on.", initial: false)
        let lit = EventOutput<String>("Emitted by init.")
    }

    init(ports: Ports, context: Context) {
        ports.isOn.bind(ports.toggle.scan(false) { isOn, _ in !isOn })
        ports.lit.accept("lamp ready")
    }
}

/// A parent holding a typed handle on one Lamp: it counts lamps on, relays the lamp's
/// announcement, switches it through its input, and announces itself while built.
final class Room: ViewModel {
    static let summary = "A room with one lamp, for the parent/child server tests."

    struct Ports: ViewModelPorts {
        let switchAll = Input<Void>("Switch every lamp.")
        let lampsOn = State<Int>("Lamps that are on.", initial: 0)
        let opened = EventOutput<String>("Emitted by init.")
        let announced = EventOutput<String>("What the lamp announced.")
    }

    let ports: Ports

    init(ports: Ports, context: Context) {
        self.ports = ports
        guard let lamp = try? context.createChild(Lamp.self) else { return }
        ports.lampsOn.bind(lamp.output(\.isOn).map { $0 ? 1 : 0 })
        ports.announced.bind(lamp.output(\.lit))
        ports.switchAll.subscribe(onNext: { lamp.send(\.toggle) }).disposed(by: context.bag)
        ports.opened.accept("room")
    }
}

func roomRegistry() throws -> ViewModelRegistry {
    var registry = ViewModelRegistry()
    try registry.register(Room.self)
    try registry.register(Lamp.self)
    return registry
}

@Suite("Parents and children over the wire")
struct ParentChildServerTests {
    @Test("vm.create with subscribe sees the events of init after the replayed states, with their seqs")
    func createSeesInitEvents() async throws {
        let fixture = try InMemoryServer.forTests(registry: roomRegistry())
        let client = fixture.open()
        #expect(try await client.result("vm.create", json(#"{"type":"Room","id":"room","subscribe":{}}"#))["subscription"] == "sub-1")
        #expect(try await client.takeAvailable().map(output) == [
            "sub-1 #1 lampsOn=0 replay", "sub-1 #2 opened=\"room\"", "sub-1 #3 announced=\"lamp ready\"",
        ])
        fixture.scheduler.advance()
        #expect(try await client.takeAvailable().isEmpty)
    }

    @Test("with replay false the events of init come first, from seq 1")
    func createWithoutReplay() async throws {
        let fixture = try InMemoryServer.forTests(registry: roomRegistry())
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Room","id":"room","subscribe":{"outputs":["announced"],"replay":false}}"#))
        #expect(try await client.takeAvailable().map(output) == ["sub-1 #1 announced=\"lamp ready\""])
    }

    @Test("the child is listed with its parent; a client driving the child sees the parent react, and the parent drives the child")
    func clientSeesParentReact() async throws {
        let fixture = try InMemoryServer.forTests(registry: roomRegistry())
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Room","id":"room"}"#))
        #expect(try await client.result("vm.list")["instances"] == json(#"""
            [{"instance":"room","type":"Room","scope":"daemon","subscribers":0},
             {"instance":"lamp-1","type":"Lamp","scope":"daemon","subscribers":0,"parent":"room"}]
            """#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"room","outputs":["lampsOn"]}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"lamp-1","outputs":["isOn"]}"#))
        _ = try await client.result("vm.send", json(#"{"instance":"lamp-1","input":"toggle"}"#))
        _ = try await client.result("vm.send", json(#"{"instance":"room","input":"switchAll"}"#))
        #expect(try await client.takeAvailable().map(output) == [
            "sub-1 #1 lampsOn=0 replay", "sub-2 #1 isOn=false replay",
            "sub-2 #2 isOn=true", "sub-1 #2 lampsOn=1",
            "sub-2 #3 isOn=false", "sub-1 #3 lampsOn=0",
        ])
        _ = try await client.result("vm.destroy", json(#"{"instance":"room"}"#))
        #expect(try await client.notifications("vm.closed").map { $0["params"]?["reason"] } == ["parentDestroyed", "destroyed"])
        #expect(fixture.host.count == 0)
    }

    @Test("without subscribe the events of init are dropped at once: a later subscriber never sees them, nothing is kept")
    func createWithoutSubscribeKeepsNothing() async throws {
        let fixture = try InMemoryServer.forTests(registry: roomRegistry())
        let client = fixture.open()
        weak var opened: EventOutput<String>?
        weak var room: Room?
        do {
            _ = try await client.result("vm.create", json(#"{"type":"Room","id":"room"}"#))
            room = try fixture.host.instance("room").viewModel as? Room
            opened = room?.ports.opened
            _ = try await client.result("vm.subscribe", json(#"{"instance":"room"}"#))
            fixture.scheduler.advance()
            #expect(try await client.takeAvailable().map(output) == ["sub-1 #1 lampsOn=0 replay"])
            _ = try await client.result("vm.destroy", json(#"{"instance":"room"}"#))
        }
        #expect(room == nil)
        #expect(opened == nil)
    }
}
