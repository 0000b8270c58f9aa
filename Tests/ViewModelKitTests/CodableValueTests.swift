import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
@testable import ViewModelKit

/// A host serving `Todos` and `LabelEcho` on virtual time.
private func codableHost() throws -> ViewModelHost {
    var registry = ViewModelRegistry()
    try registry.register(Todos.self)
    try registry.register(LabelEcho.self)
    return ViewModelHost(registry: registry, scheduler: TestScheduler())
}

@Suite("Codable values in every kind of port")
struct CodableValueTests {
    @Test("a 3-field struct in State<[Item]> goes in and out of the host as JSON")
    func structsThroughTheHost() throws {
        let host = try codableHost()
        let todos = try host.create(type: "Todos")
        var items: [JSONValue] = []
        var added: [JSONValue] = []
        let watchingItems = try todos.observe(output: "items") { items.append($0) }
        let watchingAdded = try todos.observe(output: "added") { added.append($0) }
        defer { watchingItems.dispose(); watchingAdded.dispose() }

        #expect(try todos.currentValue(output: "items") == [])
        try todos.send(input: "add", value: ["id": 1, "title": "Milk", "done": false])
        try todos.send(input: "add", value: ["id": 2, "title": "Eggs", "done": true])
        try todos.send(input: "filter", value: "done")
        try todos.send(input: "filter")  // omitted: the default, all

        let milk: JSONValue = ["id": 1, "title": "Milk", "done": false]
        let eggs: JSONValue = ["id": 2, "title": "Eggs", "done": true]
        #expect(items == [[milk], [milk, eggs], [eggs], [milk, eggs]])
        #expect(added == [milk, eggs])
        #expect(try todos.currentValue(output: "items").encodedString()
            == #"[{"id":1,"title":"Milk","done":false},{"id":2,"title":"Eggs","done":true}]"#)
    }

    @Test("actions take and return Codable values, and Void on either side")
    func actions() throws {
        let host = try codableHost()
        let todos = try host.create(type: "Todos")
        try todos.send(input: "add", value: ["id": 1, "title": "Milk", "done": false])
        var flipped: Result<JSONValue, ViewModelError>?
        _ = try todos.execute(action: "flip", value: ["id": 1, "title": "Milk", "done": false]) { flipped = $0 }
        #expect(try flipped?.get() == ["id": 1, "title": "Milk", "done": true])
        var counted: Result<JSONValue, ViewModelError>?
        _ = try todos.execute(action: "count") { counted = $0 }
        #expect(try counted?.get() == ["done": 0, "open": 1])
        var removed: Result<JSONValue, ViewModelError>?
        _ = try todos.execute(action: "remove", value: 1) { removed = $0 }
        #expect(try removed?.get() == .null)
    }

    @Test("vm.types publishes the derived schemas")
    func derivedSchemasArePublished() throws {
        let description = try ViewModelRegistry.describe(Todos.self)
        let item = #"{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"done":{"type":"boolean"}},"required":["id","title","done"],"additionalProperties":false}"#
        #expect(description.inputs.map { $0.schema.encodedString() } == [
            item,
            #"{"type":"string","enum":["all","open","done"],"default":"all"}"#,
            #"{"type":"string"}"#,
        ])
        #expect(description.outputs.map { $0.schema.encodedString() } == [
            #"{"type":"array","items":"# + item + "}", #"{"type":["string","null"]}"#, item,
        ])
        #expect(description.actions.map { $0.input.encodedString() + " -> " + $0.output.encodedString() } == [
            item + " -> " + item,
            #"{"type":"null"} -> {"type":"object","additionalProperties":{"type":"integer"}}"#,
            #"{"type":"integer"} -> {"type":"null"}"#,
        ])
    }

    @Test("a struct missing a member is rejected with the member's path before the view model sees it")
    func invalidStruct() throws {
        let host = try codableHost()
        let todos = try host.create(type: "Todos")
        #expect(kitError { try todos.send(input: "add", value: ["id": 1, "title": "Milk"]) }
            == .invalidValue(.input("add", instance: todos.id), path: JSONPath([.key("done")]), expected: "boolean", got: "missing"))
        #expect(kitError { try todos.send(input: "add", value: ["id": "1", "title": "Milk", "done": false]) }
            == .invalidValue(.input("add", instance: todos.id), path: JSONPath([.key("id")]), expected: "integer", got: "string"))
        #expect(try todos.currentValue(output: "items") == [])
    }

    @Test("a Codable enum input rejects an unknown case, listing the cases")
    func unknownEnumCase() throws {
        let host = try codableHost()
        let todos = try host.create(type: "Todos")
        let error = kitError { try todos.send(input: "filter", value: "later") }
        #expect(error == .invalidValue(.input("filter", instance: todos.id), path: .root, expected: #"one of "all", "open", "done""#, got: #""later""#))
        #expect(error?.message == #"Invalid value for input "filter" of todos-1: expected one of "all", "open", "done", got "later"."#)
    }

    @Test("an enum that cannot list its cases is rejected by its decoder, naming the type")
    func unknownOpaqueEnumCase() throws {
        let host = try codableHost()
        let todos = try host.create(type: "Todos")
        #expect(kitError { try todos.send(input: "urgency", value: "soon") }
            == .invalidValue(.input("urgency", instance: todos.id), path: .root, expected: "a valid Urgency", got: #""soon""#))
        try todos.send(input: "urgency", value: "high")
        #expect(try todos.currentValue(output: "lastUrgency") == "high")
    }

    @Test("a type that is both Codable and JSONConvertible uses its hand-written codec")
    func handWrittenCodecWins() throws {
        let ports = LabelEcho.Ports()
        #expect(ports.label.facts.role == .input(schema: Labelled.jsonSchema, defaultValue: nil))
        #expect(ports.current.encode(Labelled(label: "x")) == ["hand": "x"])
        guard case .action(let input, _) = ports.echo.facts.role else {
            Issue.record("echo is not an action port")
            return
        }
        #expect(input == Labelled.jsonSchema)

        let host = try codableHost()
        let echo = try host.create(type: "LabelEcho")
        #expect(try echo.currentValue(output: "current") == ["hand": "none"])
        try echo.send(input: "label", value: ["hand": "typed"])
        #expect(try echo.currentValue(output: "current") == ["hand": "typed"])
        #expect(kitError { try echo.send(input: "label", value: ["label": "synthesized"]) } != nil)
        var made: Result<JSONValue, ViewModelError>?
        _ = try echo.execute(action: "echo", value: ["hand": "t"]) { made = $0 }
        #expect(try made?.get() == ["id": 0, "title": "t", "done": false])
    }
}
