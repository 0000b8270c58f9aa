import JSONCore
import ReactiveTesting
import Testing
import VMServer
import ViewModelCatalog
import ViewModelKit

/// A store in memory: what the server told it, and what it hands back at start.
final class MemoryInstanceStore: InstanceStore {
    var stored: [StoredInstance]
    var log: [String] = []
    var asideReasons: [String: String] = [:]

    init(_ stored: [StoredInstance] = []) {
        self.stored = stored
    }

    func restorable() -> [StoredInstance] { stored }
    func created(_ instance: StoredInstance) { log.append("created \(instance.id) \(instance.saved.encodedString)") }
    func saved(_ instance: String, key: String, entry: JSONValue) { log.append("saved \(instance) \(key) \(entry.encodedString())") }
    var changeCollector: (() -> Void)?
    var waiting = 0
    func changesWaiting() { waiting += 1 }
    func destroyed(_ instance: String) { log.append("destroyed \(instance)") }
    func setAside(_ instance: String, what: JSONValue, reason: String) { asideReasons[instance] = reason }
}

extension JSONObject {
    fileprivate var encodedString: String { JSONValue.object(self).encodedString() }
}

@Suite("Durable restore: the server recreates what its store kept, parents first, and sets aside the rest")
struct DurableRestoreTests {
    private static func server(_ store: MemoryInstanceStore) throws -> (Server, ViewModelHost) {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        let scheduler = TestScheduler()
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let identity = ServerIdentity(
            version: "0.1.0-test", bootId: "0123456789abcdef0123456789abcdef", pid: 1, startedAt: scheduler.now,
            socketPath: "/tmp/unused.sock", slowClient: .coalesce, uid: 1000)
        return (Server(host: host, identity: identity, store: store), host)
    }

    private static func counter(_ id: String, count: Int, parent: String? = nil) -> StoredInstance {
        StoredInstance(id: id, type: "Counter", args: ["start": 0], parent: parent, saved: ["count": ["version": 1, "value": .integer(Int64(count))]])
    }

    @Test("instances come back with their ids, parents and saved values, a child stored before its parent included")
    func restoresParentsFirst() throws {
        let store = MemoryInstanceStore([Self.counter("child", count: 2, parent: "parent"), Self.counter("parent", count: 9)])
        let (server, host) = try Self.server(store)
        #expect(server.restoreDurableInstances() == 2)
        #expect(host.instances.map(\.id) == ["parent", "child"])
        #expect(try host.instance("child").parent == "parent")
        #expect(try host.instance("parent").currentValue(output: "count") == 9)
        #expect(try host.instance("child").currentValue(output: "count") == 2)
        #expect(store.log.isEmpty, "restored as stored: nothing new to write")
    }

    @Test("a restored instance's changes and destruction reach the store; the daemon's end does not destroy it")
    func changesAfterRestore() throws {
        let store = MemoryInstanceStore([Self.counter("a", count: 1), Self.counter("b", count: 1)])
        let (server, host) = try Self.server(store)
        server.restoreDurableInstances()
        try host.instance("a").send(input: "increment", value: 4)
        try host.instance("a").send(input: "increment", value: 1)
        #expect(store.waiting == 1, "one call per batch, however many changes")
        store.changeCollector?()
        try host.destroy("b")
        server.shutdown()
        #expect(store.log == [#"saved a count {"version":1,"value":6}"#, "destroyed b"])
    }

    @Test("an instance of a type the daemon no longer serves, or whose parent did not come back, is set aside and forgotten")
    func unrestorableSetAside() throws {
        let store = MemoryInstanceStore([
            StoredInstance(id: "gone", type: "Removed", args: [:], parent: nil, saved: [:]),
            Self.counter("orphan", count: 3, parent: "gone"),
            Self.counter("fine", count: 4),
        ])
        let (server, host) = try Self.server(store)
        #expect(server.restoreDurableInstances() == 1)
        #expect(host.instances.map(\.id) == ["fine"])
        #expect(store.asideReasons["gone"]?.contains("cannot be created again") == true)
        #expect(store.asideReasons["orphan"]?.contains("its parent 'gone' was not restored") == true)
        #expect(store.log == ["destroyed gone", "destroyed orphan"])
    }
}
