import JSONCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("Saved state: Counter and TodoList save what a durable instance needs to come back")
struct SavedStateTests {
    @Test("Counter saves every count it publishes, under version 1")
    func counterSavesItsCount() {
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 2), scheduler: TestScheduler())
        counter.send(\.increment, 3)
        counter.send(\.decrement, 1)
        #expect(counter.savedState.entries["count"] == SavedEntry(version: 1, value: 4))
    }

    @Test("a Counter restored with a saved count starts from it, not from its start argument")
    func counterRestores() {
        let saved = SavedState(restoring: ["count": SavedEntry(version: 1, value: 50)])
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 7), scheduler: TestScheduler(), savedState: saved)
        let count = counter.record(\.count)
        counter.send(\.increment, 1)
        #expect(count.values == [50, 51])
        #expect(saved.entries["count"] == SavedEntry(version: 1, value: 51))
    }

    @Test("a saved count of another version is set aside and the Counter starts from its default")
    func counterSetsAsideAnotherVersion() {
        let saved = SavedState(restoring: ["count": SavedEntry(version: 9, value: 50)])
        var reasons: [String] = []
        saved.onSetAside = { key, _, reason in reasons.append("\(key): \(reason)") }
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 7), scheduler: TestScheduler(), savedState: saved)
        #expect(counter.record(\.count).values == [7])
        #expect(saved.setAside["count"] == SavedEntry(version: 9, value: 50))
        #expect(reasons == ["count: saved with version 9, the view model now declares version 1 and migrates none"])
    }

    @Test("a saved count that no longer decodes is set aside, never used, and the default is saved in its place")
    func counterSetsAsideUndecodable() {
        let saved = SavedState(restoring: ["count": SavedEntry(version: 1, value: "fifty")])
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 7), scheduler: TestScheduler(), savedState: saved)
        #expect(counter.record(\.count).values == [7])
        #expect(saved.setAside["count"] == SavedEntry(version: 1, value: "fifty"))
        #expect(saved.entries["count"] == SavedEntry(version: 1, value: 7))
    }

    @Test("a migration turns a value saved under an older version into the current one, saved at once")
    func migrationRewritesOldVersions() {
        let saved = SavedState(restoring: ["label": SavedEntry(version: 1, value: 12)])
        let labelled = ViewModelHarness(Labelled.self, args: NoArguments(), scheduler: TestScheduler(), savedState: saved)
        #expect(labelled.ports.label.value == "#12")
        #expect(saved.entries["label"] == SavedEntry(version: 2, value: "#12"))
        #expect(saved.setAside.isEmpty)
    }

    @Test("a restored TodoList keeps its items and never hands out an id again")
    func todoListRestoresWithoutReusingIDs() {
        let first = ViewModelHarness(TodoList.self, args: TodoList.Arguments(), scheduler: TestScheduler())
        first.send(\.add, "a")
        first.send(\.add, "b")
        first.send(\.remove, 2)
        let saved = SavedState(restoring: first.savedState.entries)
        let second = ViewModelHarness(TodoList.self, args: TodoList.Arguments(), scheduler: TestScheduler(), savedState: saved)
        second.send(\.add, "c")
        #expect(second.ports.items.value == [TodoItem(id: 1, title: "a"), TodoItem(id: 3, title: "c")])
    }
}

/// A view model whose saved label was an integer in version 1 and is a string in version 2.
private struct Labelled: ViewModel {
    static let summary = "A label saved as a string since version 2."

    struct Ports: ViewModelPorts {
        let label = State<String>("The label.", initial: "")
    }

    init(ports: Ports, context: Context) {
        let saved = context.saved("label", default: "none", version: 2) { old in old.value.intValue.map { "#\($0)" } }
        ports.label.accept(saved.value)
        saved.save(ports.label)
    }
}
