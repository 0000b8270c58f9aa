import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("A parent drives its typed children, in the harness and in the host")
struct ParentChildTests {
    @Test("the parent sees its rows' reads, whether the user reads a row or the parent marks them all")
    func parentObservesChildren() throws {
        let scheduler = TestScheduler()
        let inbox = try ViewModelHarness(Inbox.self, scheduler: scheduler)
        let unread = inbox.record(\.unread)
        scheduler.scheduleAt(10) { inbox.send(\.add, "m1") }
        scheduler.scheduleAt(20) { inbox.send(\.add, "m2") }
        scheduler.scheduleAt(30) { inbox.child(MessageRow.self, id: "messagerow-2")?.send(\.markRead) }
        scheduler.scheduleAt(40) { inbox.send(\.markAllRead) }
        scheduler.start()
        #expect(unread.values == [1, 2, 3, 2, 1, 0])
        #expect(inbox.children(MessageRow.self).map(\.id) == ["messagerow-1", "messagerow-2", "messagerow-3"])
        #expect(inbox.openedChildren.map(\.args) == [["id": "welcome"], ["id": "m1"], ["id": "m2"]])
    }

    @Test("the parent executes a row's action through its handle, then destroys the row")
    func parentExecutesAndDestroys() throws {
        let scheduler = TestScheduler()
        let inbox = try ViewModelHarness(Inbox.self, scheduler: scheduler)
        let unread = inbox.record(\.unread)
        inbox.send(\.add, "m1")
        let row = try #require(inbox.child(MessageRow.self, id: "messagerow-2"))
        let archived = inbox.execute(\.archive, "m1")
        #expect(archived.values == ["m1"])
        #expect(archived.isCompleted)
        #expect(row.isDisposed)
        #expect(inbox.children(MessageRow.self).map(\.id) == ["messagerow-1"])
        #expect(unread.values == [1, 2, 1])
        let missing = inbox.execute(\.archive, "m1")
        #expect((missing.error as? ActionError)?.failureMessage == "No row m1.")
    }

    @Test("disposing the parent disposes its children")
    func disposingTheParentDisposesChildren() throws {
        let inbox = try ViewModelHarness(Inbox.self, scheduler: TestScheduler())
        inbox.send(\.add, "m1")
        let rows = inbox.children(MessageRow.self)
        inbox.dispose()
        #expect(rows.map(\.isDisposed) == [true, true])
        #expect(inbox.children(MessageRow.self).isEmpty)
    }

    @Test("events emitted by init reach recordings made before the first turn, children's after the parent's")
    func initEventsInTheHarness() throws {
        let scheduler = TestScheduler()
        let inbox = try ViewModelHarness(Inbox.self, scheduler: scheduler)
        let ready = inbox.record(\.ready)
        let opened = inbox.record(\.rowOpened)
        #expect(ready.values.count == 0)
        #expect(opened.values.isEmpty)
        scheduler.advance(to: 5)
        #expect(ready.values.count == 1)
        #expect(opened.values == ["welcome"])
        scheduler.scheduleAt(10) { inbox.send(\.add, "m1") }
        scheduler.advance(to: 10)
        #expect(opened.values == ["welcome", "m1"])
        #expect(ready.values.count == 1)
    }

    @Test("events emitted by init that nobody recorded before the first turn are dropped")
    func initEventsDroppedInTheHarness() throws {
        let scheduler = TestScheduler()
        let inbox = try ViewModelHarness(Inbox.self, scheduler: scheduler)
        scheduler.advance(to: 1)
        let ready = inbox.record(\.ready)
        let opened = inbox.record(\.rowOpened)
        scheduler.advance(to: 100)
        #expect(ready.values.count == 0)
        #expect(opened.values.isEmpty)
    }

    @Test("an event after init releases the held ones first, so the order stays the order of emission")
    func initEventsBeforeLaterEvents() throws {
        let scheduler = TestScheduler()
        let row = ViewModelHarness(MessageRow.self, args: .init(id: "r"), scheduler: scheduler)
        let opened = row.record(\.opened)
        row.ports.opened.accept("later")
        #expect(opened.values == ["r", "later"])
        scheduler.start()
        #expect(opened.values == ["r", "later"])
    }

    @Test("in the host, typed children are real instances with their parent, driven by clients too")
    func hostChildrenAreRealInstances() throws {
        let host = try makeInboxHost()
        let inbox = try host.create(type: "Inbox")
        var unread: [JSONValue] = []
        _ = try inbox.observe(output: "unread") { unread.append($0) }
        try inbox.send(input: "add", value: "m1")
        #expect(host.instances.map { "\($0.id)<\($0.parent ?? "-")" } == ["inbox-1<-", "messagerow-1<inbox-1", "messagerow-2<inbox-1"])
        // A client reads the row directly; the parent reacts.
        try host.instance("messagerow-2").send(input: "markRead")
        #expect(try host.instance("messagerow-2").currentValue(output: "isRead") == true)
        #expect(unread == [2, 1])
        var closed: [String] = []
        host.onClose = { instance, reason in closed.append("\(instance.id) \(reason.rawValue)") }
        #expect(try executeNow(inbox, "archive", "m1")?.get() == "m1")
        #expect(closed == ["messagerow-2 destroyed"])
        #expect(unread == [2, 1])
        try host.destroy("inbox-1")
        #expect(closed == ["messagerow-2 destroyed", "messagerow-1 parentDestroyed", "inbox-1 destroyed"])
        #expect(host.count == 0)
    }

    @Test("in the host, init events wait for deliverHeldEvents (or the next turn) and are then dropped if unwatched")
    func hostHoldsInitEvents() throws {
        let scheduler = TestScheduler()
        let host = try makeInboxHost(scheduler: scheduler)
        let watched = try host.create(type: "Inbox")
        var opened: [JSONValue] = [], ready = 0
        _ = try watched.observe(output: "rowOpened") { opened.append($0) }
        _ = try watched.observe(output: "ready") { _ in ready += 1 }
        #expect(opened.isEmpty)
        host.deliverHeldEvents()
        #expect(ready == 1)
        #expect(opened == ["welcome"])

        let unwatched = try host.create(type: "Inbox")
        scheduler.advance()
        var late: [JSONValue] = []
        _ = try unwatched.observe(output: "rowOpened") { late.append($0) }
        host.deliverHeldEvents()
        scheduler.advance()
        #expect(late.isEmpty)
    }

    @Test("an instance a typed handle drives still reports its own view model, like any other instance")
    func typedChildReportsItsViewModel() throws {
        let host = try makeInboxHost()
        let inbox = try host.create(type: "Inbox")
        #expect(inbox.viewModel is Inbox)
        let row = try host.instance("messagerow-1")
        #expect(row.viewModel is MessageRow)
        #expect(!(row.viewModel is MessageRow.Ports))
        try host.destroy("inbox-1")
        #expect(row.viewModel == nil)
    }

    @Test("a typed child of a type the host does not serve is not created, and the parent goes on without it")
    func unregisteredChildType() throws {
        var registry = ViewModelRegistry()
        try registry.register(Inbox.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let inbox = try host.create(type: "Inbox")
        #expect(host.instances.map(\.id) == ["inbox-1"])
        #expect(try inbox.currentValue(output: "unread") == 0)
    }
}

func makeInboxHost(scheduler: TestScheduler = TestScheduler()) throws -> ViewModelHost {
    var registry = ViewModelRegistry()
    try registry.register(Inbox.self)
    try registry.register(MessageRow.self)
    return ViewModelHost(registry: registry, scheduler: scheduler)
}

@Suite("The harness gives children the services the test registers")
struct ChildServicesTests {
    @Test("a child with services is built with the registered ones, and the parent runs its async action")
    func childGetsItsServices() async throws {
        let scheduler = TestScheduler()
        var services = ChildServices()
        services.register(Fetcher.self, services: SleepingService(sleep: .zero))
        let panel = try ViewModelHarness(FetchPanel.self, scheduler: scheduler, childServices: services)
        #expect(panel.record(\.hasFetcher).values == [true])
        let fetcher = try #require(panel.child(Fetcher.self, id: "fetcher-1"))
        let isFetching = fetcher.record(\.isFetching)
        let fetched = panel.execute(\.fetch)
        #expect(isFetching.values == [false, true])
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(fetched.values == ["fetched"])
        #expect(fetched.isCompleted)
        #expect(isFetching.values == [false, true, false])
    }

    @Test("a child whose services were not registered is not built; the parent is told")
    func childWithoutServices() throws {
        let panel = try ViewModelHarness(FetchPanel.self, scheduler: TestScheduler())
        #expect(panel.record(\.hasFetcher).values == [false])
        #expect(panel.children(Fetcher.self).isEmpty)
        #expect(panel.openedChildren.isEmpty)
        #expect((panel.execute(\.fetch).error as? ActionError)?.failureMessage == "No fetcher.")
    }
}
