import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
@testable import ViewModelKit
import ViewModelTesting

/// A view model that keeps its saved value, so tests can read it after `init`.
struct SavingSum: ViewModel {
    static let summary = "Counts what it is sent, and saves the count."

    struct Ports: ViewModelPorts {
        let add = Input<Int>("Add a number.")
        let total = State<Int>("The sum so far.", initial: 0)
    }

    let saved: SavedValue<Int>

    init(ports: Ports, context: Context) {
        let saved = context.saved("total", default: 10)
        let start = saved.value
        ports.total.bind(ports.add.scan(start) { $0 + $1 }.startWith(start))
        saved.save(ports.total)
        self.saved = saved
    }
}

@Suite("A saved value reads what was last written, saved or not")
struct SavedValueTests {
    @Test("where values are saved, value reads what save(_:) wrote and a write through value is saved")
    func savingInstanceReadsTheSavedWrites() {
        let sum = ViewModelHarness(SavingSum.self, args: .init(), scheduler: TestScheduler())
        sum.send(\.add, 5)
        #expect(sum.viewModel.saved.value == 15)
        sum.viewModel.saved.value = 3
        #expect(sum.viewModel.saved.value == 3)
        #expect(sum.savedState.entries["total"] == SavedEntry(version: 1, value: 3))
        sum.send(\.add, 1)
        #expect(sum.viewModel.saved.value == 16)
        #expect(sum.savedState.entries["total"] == SavedEntry(version: 1, value: 16))
    }

    @Test("where nothing is saved (a daemon instance that is not durable), value is the default, then what is written")
    func instanceSavingNothingKeepsItsValue() throws {
        var registry = ViewModelRegistry()
        try registry.register(SavingSum.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let instance = try host.create(type: "SavingSum")
        let sum = try #require(instance.viewModel as? SavingSum)
        #expect(sum.saved.store == nil)
        try instance.send(input: "add", value: 5)
        #expect(sum.saved.value == 10)
        sum.saved.value = 4
        #expect(sum.saved.value == 4)
    }
}
