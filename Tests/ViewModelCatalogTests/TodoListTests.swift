import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("TodoList: a list of items added, toggled, renamed and removed by id")
struct TodoListTests {
    private typealias Seed = TodoList.Arguments.Seed

    @Test("adds, toggles, renames and removes items, publishing the list and the count of open items")
    func happyPath() {
        let scheduler = TestScheduler()
        let list = ViewModelHarness(TodoList.self, args: TodoList.Arguments(), scheduler: scheduler)
        let items = list.record(\.items)
        let remaining = list.record(\.remaining)
        scheduler.scheduleAt(10) { list.send(\.add, "milk") }
        scheduler.scheduleAt(20) { list.send(\.add, "bread") }
        scheduler.scheduleAt(30) { list.send(\.toggle, 1) }
        scheduler.scheduleAt(40) { list.send(\.rename, TodoRename(id: 2, title: "rye bread")) }
        scheduler.scheduleAt(50) { list.send(\.remove, 1) }
        scheduler.start()
        let milk = TodoItem(id: 1, title: "milk"), bread = TodoItem(id: 2, title: "bread")
        #expect(items.events == [
            .next(0, []),
            .next(10, [milk]),
            .next(20, [milk, bread]),
            .next(30, [TodoItem(id: 1, title: "milk", done: true), bread]),
            .next(40, [TodoItem(id: 1, title: "milk", done: true), TodoItem(id: 2, title: "rye bread")]),
            .next(50, [TodoItem(id: 2, title: "rye bread")]),
        ])
        #expect(remaining.events == [.next(0, 0), .next(10, 1), .next(20, 2), .next(30, 1)])
    }

    @Test("starts from the items argument with ids from 1 and never reuses an id")
    func idsNeverReused() {
        let list = ViewModelHarness(
            TodoList.self, args: TodoList.Arguments(items: [Seed(title: "a"), Seed(title: "b", done: true)]), scheduler: TestScheduler())
        let items = list.record(\.items)
        list.send(\.remove, 2)
        list.send(\.add, "c")
        #expect(items.values == [
            [TodoItem(id: 1, title: "a"), TodoItem(id: 2, title: "b", done: true)],
            [TodoItem(id: 1, title: "a")],
            [TodoItem(id: 1, title: "a"), TodoItem(id: 3, title: "c")],
        ])
    }

    @Test("clearDone removes every done item at once, and publishes nothing when none is done")
    func clearDone() {
        let list = ViewModelHarness(
            TodoList.self, args: TodoList.Arguments(items: [Seed(title: "a", done: true), Seed(title: "b"), Seed(title: "c", done: true)]),
            scheduler: TestScheduler())
        let items = list.record(\.items)
        let remaining = list.record(\.remaining)
        list.send(\.clearDone)
        list.send(\.clearDone)
        list.send(\.rename, TodoRename(id: 2, title: "b"))
        #expect(items.values.map { $0.map(\.id) } == [[1, 2, 3], [2]])
        #expect(remaining.values == [1])
    }

    @Test("an unknown id is refused as an invalid value and changes nothing")
    func unknownIDs() throws {
        var registry = ViewModelRegistry()
        try registry.register(TodoList.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let list = try host.create(type: "TodoList", args: ["items": [["title": "a"]]])
        for (input, value) in [("toggle", 7), ("remove", 0), ("rename", ["id": 9, "title": "x"])] as [(String, JSONValue)] {
            do {
                try list.send(input: input, value: value)
                Issue.record("\(input) \(value) was accepted")
            } catch {
                #expect(error.name == "invalidValue")
                #expect(error.message.contains("the id of an item"), "\(error.message)")
            }
        }
        try list.send(input: "toggle", value: 1)
        #expect(try list.currentValue(output: "items") == [["id": 1, "title": "a", "done": true]])
        #expect(try list.currentValue(output: "remaining") == 0)
    }
}
