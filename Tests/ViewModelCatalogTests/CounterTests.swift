import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("Counter: steps, sets and resets folded into one count")
struct CounterTests {
    @Test("steps up and down, sets and resets, publishing each new count once")
    func happyPath() {
        let scheduler = TestScheduler()
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 5), scheduler: scheduler)
        let count = counter.record(\.count)
        var reset: Recording<Int>?
        scheduler.scheduleAt(10) { counter.send(\.increment, 2) }
        scheduler.scheduleAt(20) { counter.send(\.decrement, 1) }
        scheduler.scheduleAt(30) { counter.send(\.set, 42) }
        scheduler.scheduleAt(40) { reset = counter.execute(\.reset) }
        scheduler.scheduleAt(50) { counter.send(\.decrement, 3) }
        scheduler.start()
        #expect(count.events == [.next(0, 5), .next(10, 7), .next(20, 6), .next(30, 42), .next(40, 0), .next(50, -3)])
        #expect(reset?.values == [0])
        #expect(reset?.isCompleted == true)
    }

    @Test("a change that leaves the count as it was publishes nothing")
    func noDuplicates() {
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: 3), scheduler: TestScheduler())
        let count = counter.record(\.count)
        counter.send(\.set, 3)
        counter.send(\.increment, 0)
        counter.execute(\.reset)
        counter.execute(\.reset)
        #expect(count.values == [3, 0])
    }

    @Test("counting saturates at the 64-bit bounds instead of trapping")
    func saturates() {
        let counter = ViewModelHarness(Counter.self, args: Counter.Arguments(start: .max - 1), scheduler: TestScheduler())
        let count = counter.record(\.count)
        counter.send(\.increment, 5)
        counter.send(\.decrement, .min)
        counter.send(\.set, .min + 1)
        counter.send(\.decrement, 5)
        counter.send(\.increment, .min)
        #expect(count.values == [.max - 1, .max, .min + 1, .min])
    }

    @Test("creation arguments: start defaults to 0, unknown members are refused")
    func arguments() throws {
        #expect(try Counter.Arguments(json: [:]).start == 0)
        #expect(try Counter.Arguments(json: ["start": -4]).start == -4)
        #expect(throws: JSONDecodingError.self) { try Counter.Arguments(json: ["begin": 1]) }
    }

    @Test("over the wire an omitted or null step means 1, and anything else must be an integer")
    func stepOnTheWire() throws {
        var registry = ViewModelRegistry()
        try registry.register(Counter.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let counter = try host.create(type: "Counter", args: ["start": 10])
        try counter.send(input: "increment")
        try counter.send(input: "increment", value: .null)
        try counter.send(input: "decrement")
        try counter.send(input: "decrement", value: .null)
        try counter.send(input: "increment", value: 5)
        #expect(try counter.currentValue(output: "count") == 15)
        #expect(throws: ViewModelError.self) { try counter.send(input: "increment", value: "two") }
        #expect(throws: ViewModelError.self) { try counter.send(input: "increment", value: 1.5) }
        #expect(throws: ViewModelError.self) { try counter.send(input: "set") }
        #expect(try counter.currentValue(output: "count") == 15)
    }

    @Test("vm.types describes Counter completely")
    func description() throws {
        #expect(try describe(Counter.self) == """
        {"name":"Counter","summary":"A number you can step up and down.",\
        "args":{"type":"object","properties":{"start":{"type":"integer","default":0}},"additionalProperties":false},\
        "inputs":[\
        {"name":"increment","summary":"Add step to the count.","schema":{"type":["integer","null"],"description":"The step; omitted or null means 1.","default":1}},\
        {"name":"decrement","summary":"Subtract step from the count.","schema":{"type":["integer","null"],"description":"The step; omitted or null means 1.","default":1}},\
        {"name":"set","summary":"Replace the count.","schema":{"type":"integer"}}],\
        "outputs":[{"name":"count","summary":"The current count.","kind":"state","schema":{"type":"integer"}}],\
        "actions":[{"name":"reset","summary":"Set the count to 0; returns 0.","input":{"type":"null"},"output":{"type":"integer"}}]}
        """)
    }
}
