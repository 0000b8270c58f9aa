import JSONCore
import Posix
import Testing
import VMClient
import VMProtocol
import VMTestSupport

/// `vmctl gen swift`: GeneratedClients/CatalogClients.swift is its output for vmd's catalog and
/// GeneratedClients/OddNames.swift for Tests/Types/odd-names.json (keywords, hyphens, digits,
/// non-ASCII, recursion), both compiled into this target, so this build type-checks them; the
/// catalog's proxies are driven against the real daemon here. A stale file fails a test.
@Suite("Generated Swift clients against vmd", .serialized, .offTheCooperativePool)
struct GeneratedClientsTests {
    @Test("the committed catalog proxies are what vmctl gen swift writes today, twice the same bytes")
    func committedProxiesAreFresh() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let first = try fixture.vmctl.run(["gen", "swift"])
        let second = try fixture.vmctl.run(["gen", "swift"])
        #expect(first.status == 0, "\(first)")
        #expect(first.output == second.output)
        let committed = String(decoding: try FileSystem.readFile(Self.path("GeneratedClients/CatalogClients.swift")), as: UTF8.self)
        #expect(first.output == committed, "regenerate: vmctl gen swift -o Tests/IntegrationTests/GeneratedClients --module CatalogClients")
    }

    @Test("the committed odd-names proxies are what vmctl gen swift writes from the saved vm.types, every name kept")
    func oddNamesAreFresh() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        let made = try fixture.vmctl.run(["gen", "swift", "--types", Self.path("../Types/odd-names.json")])
        #expect(made.status == 0, "\(made)")
        let committed = String(decoding: try FileSystem.readFile(Self.path("GeneratedClients/OddNames.swift")), as: UTF8.self)
        #expect(made.output == committed,
                "regenerate: vmctl gen swift --types Tests/Types/odd-names.json -o Tests/IntegrationTests/GeneratedClients --module OddNames")
        for wire in ["\"class\"", "\"import\"", "\"set-value\"", "\"set_value\"", "\"2nd\"", "\"caf\\u{e9}\"", "\"a b\"",
                     "\"run-now\"", "\"lambda\"", "\"def\"", "\"max-items\""] {
            #expect(committed.contains(wire), "\(wire) is missing")
        }
        // Compiled here: a record holding itself through an optional is a class, names are escaped.
        let node = Node(name: "a", next: Node(name: "b"))
        #expect(node.jsonValue == ["name": "a", "next": ["name": "b"]])
        let definition = try ClassDef(json: ["class": "x", "a b": 3, "ok": true])
        #expect(definition.class_ == "x" && definition.a_b == 3)
    }

    @Test("__complete after gen LANGUAGE offers the types not yet named, and files for -o and --types")
    func genCompletes() throws {
        let fixture = try VMCtlFixture()
        defer { fixture.tearDown() }
        func offered(_ words: String...) throws -> [String] { try fixture.vmctl.run(["__complete"] + words).lines }
        let types = try offered("gen", "python", "Login", "")
        #expect(types.contains("Counter") && types.contains("TodoList"))
        #expect(!types.contains("Login"))
        #expect(try offered("gen", "python", "-o", "") == [":files"])
        #expect(try offered("gen", "typescript", "--types", "") == [":files"])
    }

    @Test("a Counter proxy sends, gets, executes and reads its typed outputs")
    func counterProxy() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let counter = try await Counter.create(on: connected.client, args: CounterArgs(start: 5), scope: .connection)
        let subscription = try await counter.subscribe(SubscribeOptions(outputs: ["count"]))
        try await counter.sendIncrement()
        try await counter.sendIncrement(2)
        try await counter.sendSet(40)
        #expect(try await counter.getCount() == 40)
        #expect(try await counter.executeReset() == 0)
        var counts: [Int] = []
        for try await event in subscription {
            guard case .output(let output) = event, case .count(let count)? = try CounterOutput(output) else { continue }
            counts.append(count)
            if counts.count == 5 { break }
        }
        #expect(counts == [5, 6, 8, 40, 0])
    }

    @Test("Login and TodoList proxies take and return their records")
    func recordProxies() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let login = try await Login.create(on: connected.client, args: LoginArgs(latencyMs: 0), scope: .connection)
        try await login.sendEmail("demo@example.com")
        try await login.sendPassword("secret")
        #expect(try await login.getIsLoginAllowed())
        #expect(try await login.executeSubmit() == "demo@example.com")

        let start = TodoListArgs(items: [TodoListArgsItemsItem(title: "milk", done: true)])
        let todo = try await TodoList.create(on: connected.client, args: start, scope: .connection)
        try await todo.sendAdd("bread")
        let items = try await todo.getItems()
        #expect(items.map(\.title) == ["milk", "bread"])
        try await todo.sendRename(TodoListRename(id: items[1].id, title: "rye bread"))
        #expect(try await todo.getItems()[1] == TodoListItemsItem(id: items[1].id, title: "rye bread", done: false))
        try await todo.sendClearDone()
        #expect(try await todo.getRemaining() == 1)
    }

    @Test("a value the daemon refuses comes back as the daemon's error, not a crash")
    func refusedValue() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let login = try await Login.create(on: connected.client, scope: .connection)
        await #expect(throws: VMClientError.self) { try await login.executeSubmit() }
    }

    /// `relative` to this file's directory.
    private static func path(_ relative: String) -> String {
        let directory = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/" + relative
    }
}
