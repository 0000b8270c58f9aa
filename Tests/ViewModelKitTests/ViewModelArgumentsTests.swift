import JSONCore
import ReactiveTesting
import Testing
import ViewModelKit

@Suite("ViewModelArguments: each default written once")
struct ViewModelArgumentsTests {
    @Test("omitted members take the defaults written in the properties")
    func defaults() throws {
        #expect(try Todos.Arguments(json: [:]) == Todos.Arguments())
        let partial = try Todos.Arguments(json: ["limit": 3])
        #expect(partial.title == "Today")
        #expect(partial.limit == 3)
        #expect(partial.owner == nil)
        #expect(try Todos.Arguments(json: ["title": nil, "owner": "ada"]) == Todos.Arguments(title: "Today", limit: 50, owner: "ada"))
    }

    @Test("unknown members are rejected with the error hand-written arguments give")
    func unknownMembers() throws {
        let handWritten: JSONDecodingError?
        do {
            try JSONObjectDecoder(["title": "x", "pageSize": 2]).rejectUnknownMembers(allowed: ["title", "limit", "owner"])
            handWritten = nil
        } catch {
            handWritten = error
        }
        #expect(throws: try #require(handWritten)) { try Todos.Arguments(json: ["title": "x", "pageSize": 2]) }
        #expect(throws: JSONDecodingError(path: .root, expected: "object", got: "array")) { try Todos.Arguments(json: []) }
        #expect(throws: JSONDecodingError(path: JSONPath([.key("limit")]), expected: "integer", got: "string")) {
            try Todos.Arguments(json: ["limit": "ten"])
        }
    }

    @Test("the schema carries each default and requires nothing that has one")
    func schema() throws {
        #expect(Todos.Arguments.jsonSchema.encodedString() == """
        {"type":"object","properties":{"title":{"type":"string","default":"Today"},"limit":{"type":"integer","default":50},\
        "owner":{"type":["string","null"]}},"additionalProperties":false}
        """)
        #expect(Todos.Arguments().jsonValue == ["title": "Today", "limit": 50])
    }

    @Test("member schemas replace derived ones and still get the property's default")
    func memberSchemas() throws {
        struct Paging: ViewModelArguments {
            var pageSize = 20
            var cursor = ""
            static var memberSchemas: [String: JSONValue] { ["pageSize": ["type": "integer", "minimum": 1, "maximum": 100]] }
        }
        #expect(Paging.jsonSchema.encodedString() == """
        {"type":"object","properties":{"pageSize":{"type":"integer","minimum":1,"maximum":100,"default":20},\
        "cursor":{"type":"string","default":""}},"additionalProperties":false}
        """)
        let compiled = try JSONSchema(Paging.jsonSchema)
        #expect(!compiled.isValid(["pageSize": 0]))
        #expect(compiled.isValid(["pageSize": 100, "cursor": "x"]))
    }

    @Test("the host validates args against the derived schema and hands the view model the decoded defaults")
    func throughTheHost() throws {
        var registry = ViewModelRegistry()
        try registry.register(Todos.self)
        let host = ViewModelHost(registry: registry, scheduler: TestScheduler())
        let limited = try host.create(type: "Todos", args: ["limit": 1])
        try limited.send(input: "add", value: ["id": 1, "title": "a", "done": false])
        try limited.send(input: "add", value: ["id": 2, "title": "b", "done": false])
        #expect(try limited.currentValue(output: "items") == [["id": 2, "title": "b", "done": false]])
        #expect(kitError { try host.create(type: "Todos", args: ["limit": 1, "colour": "red"]) }
            == .invalidValue(.args(type: "Todos"), path: JSONPath([.key("colour")]), expected: #"no member "colour""#, got: "string"))
    }
}
