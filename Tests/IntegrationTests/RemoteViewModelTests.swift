import Testing
import VMClient
import ViewModelCatalog
import ViewModelClient

/// ViewModelClient against the real vmd: the catalog's types, linked, driven through their
/// own `Ports` (`client.create(Counter.self)`, `send(\.increment, 2)`), values encoded and
/// decoded with the ports' codecs, the daemon's refusals as VMClient's errors. (The types are
/// named with their module: GeneratedClients/ declares proxies of the same names.)
@Suite("Linked view models over VMClient against vmd")
struct RemoteViewModelTests {
    @Test("a Counter is created, sent to, read and reset through its own key paths")
    func counterThroughItsPorts() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let counter = try await connected.client.create(ViewModelCatalog.Counter.self, args: .init(start: 5), id: "c1")
        #expect(counter.instance == "c1")
        try await counter.send(\.increment, 2)
        #expect(try await counter.get(\.count) == 7)
        try await counter.send(\.decrement, 3)
        try await counter.send(\.set, 40)
        #expect(try await counter.get(\.count) == 40)
        #expect(try await counter.execute(\.reset) == 0)
        // A second handle on the same instance, by id.
        let again = try connected.client.instance(ViewModelCatalog.Counter.self, id: "c1")
        #expect(try await again.get(\.count) == 0)
        try await again.destroy()
        #expect(try await connected.client.list().isEmpty)
    }

    @Test("a typed subscription yields the current count, then each new one, and ends when the instance goes")
    func typedSubscription() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let counter = try await connected.client.create(ViewModelCatalog.Counter.self, args: .init(start: 1))
        let counts = try await counter.values(\.count)
        #expect(counts.output == "count")
        try await counter.send(\.increment, 1)
        try await counter.send(\.increment, 5)
        try await counter.send(\.set, -3)
        try await counter.destroy()
        var seen: [Int] = []
        for try await count in counts { seen.append(count) }
        #expect(seen == [1, 2, 7, -3])
    }

    @Test("a TodoList takes titles, ids, renames and a tap, and reads back its items as TodoItems")
    func todoListThroughItsPorts() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let todo = try await connected.client.create(ViewModelCatalog.TodoList.self, args: .init(items: [.init(title: "bread")]), scope: .connection)
        let remaining = try await todo.values(\.remaining, replay: false)
        try await todo.send(\.add, "milk")
        let items = try await todo.get(\.items)
        #expect(items.map(\.title) == ["bread", "milk"])
        let milk = try #require(items.last)
        try await todo.send(\.toggle, milk.id)
        try await todo.send(\.rename, TodoRename(id: milk.id, title: "oat milk"))
        #expect(try await todo.get(\.items).last == TodoItem(id: milk.id, title: "oat milk", done: true))
        try await todo.send(\.clearDone)
        #expect(try await todo.get(\.items).map(\.title) == ["bread"])
        try await todo.destroy()
        var seen: [Int] = []
        for try await count in remaining { seen.append(count) }
        #expect(seen == [2, 1])
    }

    @Test("a value the daemon refuses, and an instance it does not have, come back as VMClient's errors")
    func refusalsAreClientErrors() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let todo = try await connected.client.create(ViewModelCatalog.TodoList.self, id: "todo")
        do {
            try await todo.send(\.toggle, 999)
            Issue.record("toggling an id no item has was accepted")
        } catch let error as VMClientError {
            #expect(error.remote?.name == "invalidValue")
        }
        let nobody = try connected.client.instance(ViewModelCatalog.Counter.self, id: "nobody")
        do {
            _ = try await nobody.get(\.count)
            Issue.record("an unknown instance answered")
        } catch let error as VMClientError {
            #expect(error.remote?.name == "unknownInstance")
            #expect(error.remote?.data?["instance"] == "nobody")
        }
    }

    @Test("Login signs in through its action; the success event arrives on a typed subscription, a wrong password as actionFailed")
    func loginExecutes() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let login = try await connected.client.create(ViewModelCatalog.Login.self, args: .init(latencyMs: 0))
        let successes = try await login.values(\.loginSuccess)
        try await login.send(\.email, DemoAuthService.email)
        try await login.send(\.password, "wrong password")
        #expect(try await login.get(\.isLoginAllowed))
        do {
            _ = try await login.execute(\.submit)
            Issue.record("a wrong password signed in")
        } catch let error as VMClientError {
            #expect(error.remote?.name == "actionFailed")
        }
        try await login.send(\.password, DemoAuthService.password)
        #expect(try await login.execute(\.submit, timeoutMs: 10_000) == DemoAuthService.email)
        var iterator = successes.makeAsyncIterator()
        #expect(try await iterator.next() == DemoAuthService.email)
        try await login.destroy()
        #expect(try await iterator.next() == nil)
    }

    @Test("an element the linked codec cannot read is a protocol violation naming the port")
    func undecodableElementIsAProtocolViolation() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        _ = try await connected.client.create(ViewModelCatalog.Follow.self, args: .init(latencyMs: 0), id: "follow")
        // SendHistory's `reload` gives uploads; Follow's gives a Bool.
        let misread = try connected.client.instance(ViewModelCatalog.SendHistory.self, id: "follow")
        var outcome: (any Error)?
        for _ in 0..<200 {
            do {
                _ = try await misread.execute(\.reload)
                Issue.record("a Bool was read as uploads")
                return
            } catch let error as VMClientError where error.remote?.name == "actionNotEnabled" {
                // The initial load is still running; the action is exclusive.
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                outcome = error
                break
            }
        }
        let violation = try #require(outcome as? VMClientError)
        guard case .protocolViolation(let detail) = violation else {
            Issue.record("expected a protocol violation, got \(violation)")
            return
        }
        #expect(detail.contains("reload of SendHistory"))
    }

    @Test("a handle kept by a main-actor model is used from the main actor")
    @MainActor
    func handleOnTheMainActor() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let model = CounterScreen(counter: try await connected.client.create(ViewModelCatalog.Counter.self))
        try await model.tap()
        try await model.tap()
        #expect(model.shown == 2)
        try await model.close()
        #expect(try await connected.client.list().isEmpty)
    }
}

/// A view's model in an app, on the main actor, holding its handle.
@MainActor
private final class CounterScreen {
    let counter: RemoteViewModel<ViewModelCatalog.Counter>
    var shown = 0

    init(counter: RemoteViewModel<ViewModelCatalog.Counter>) {
        self.counter = counter
    }

    func tap() async throws {
        try await counter.send(\.increment, 1)
        shown = try await counter.get(\.count)
    }

    func close() async throws {
        try await counter.destroy()
    }
}
