import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport
import ViewModelCatalog
import ViewModelKit

/// Object and array values on the `vm.send` fast path (Server+SendFastPath.swift): the catalog's
/// TodoRecord takes the same `{id, title, done}` record as a `Codable` Note (`edit`) and as the
/// hand-written TodoItem (`editItem`). Every frame goes to two servers set up alike, one with
/// the fast path and one without; the bytes each client receives must be identical, errors
/// included (a wrong member type, a missing or extra member, bad syntax, too deep a value).
@Suite("Object values on the vm.send fast path")
struct SendFastPathObjectTests {
    private static func transcript(_ frames: [String], fastPath: Bool, limits: VMLimits) async throws -> [String] {
        var registry = ViewModelRegistry()
        try registry.register(TodoRecord.self)
        let fixture = try InMemoryServer.forTests(limits: limits, registry: registry)
        fixture.server.sendRoute.isEnabled = fastPath
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"TodoRecord","id":"e"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"e","replay":false}"#))
        let before = client.sink.messages.count
        for frame in frames { try await client.send(frame) }
        // Read before the vm.get below, which takes every message up to its reply.
        let written = Array(client.sink.texts.dropFirst(before))
        let note = try await client.result("vm.get", json(#"{"instance":"e","output":"note"}"#))
        let item = try await client.result("vm.get", json(#"{"instance":"e","output":"item"}"#))
        return written + [note.encodedString(), item.encodedString()]
    }

    private static func expectSameBytes(_ frames: [String], limits: VMLimits = VMLimits(),
                                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let fast = try await transcript(frames, fastPath: true, limits: limits)
        let general = try await transcript(frames, fastPath: false, limits: limits)
        #expect(fast == general, sourceLocation: sourceLocation)
        return general
    }

    /// A `vm.send` frame to `input` of `e` with `value` written as is.
    private static func send(_ input: String, _ value: String, id: String = "1") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"vm.send","params":{"instance":"e","input":"\#(input)","value":\#(value)}}"#
    }

    @Test("a record sent to a Codable or a hand-written input answers and emits as on the general path",
          arguments: ["edit", "editItem"])
    func validRecords(input: String) async throws {
        let general = try await Self.expectSameBytes([
            Self.send(input, #"{"id":1,"title":"Buy milk","done":false}"#),
            Self.send(input, #"{"done":true,"title":"Buy milk","id":2}"#, id: "\"x\""),
            Self.send(input, #" { "id" : 3 , "title" : "caf\u00e9 \"quoted\"" , "done" : true } "#),
            Self.send(input, #"{"id":4.0,"title":"","done":false}"#, id: "null"),
        ])
        #expect(general.filter { $0.contains("\"method\":\"vm.output\"") }.count == 4)
        #expect(!general.contains { $0.contains("\"error\"") })
    }

    @Test("a wrong record gets the same precise error on both paths", arguments: [
        ("edit", #"{"id":"1","title":"t","done":false}"#), ("editItem", #"{"id":"1","title":"t","done":false}"#),
        ("edit", #"{"id":1,"title":"t"}"#), ("editItem", #"{"id":1,"title":"t"}"#),
        ("edit", #"{"id":1,"title":"t","done":false,"extra":0}"#), ("editItem", #"{"id":1,"title":"t","done":false,"extra":0}"#),
        ("edit", #"{"id":1.5,"title":"t","done":false}"#), ("editItem", #"{"id":1,"title":null,"done":false}"#),
        ("edit", #"[1,2]"#), ("editItem", #"[]"#), ("edit", #""text""#), ("editItem", #"1.5"#), ("edit", "null"),
        ("edit", #"{"id":99999999999999999999,"title":"t","done":false}"#),
    ])
    func wrongRecords(input: String, value: String) async throws {
        let general = try await Self.expectSameBytes([Self.send(input, value), Self.send(input, value, id: "null")])
        #expect(general.contains { $0.contains("\"error\"") })
    }

    @Test("a repeated member is read as the general parser reads it", arguments: ["edit", "editItem"])
    func repeatedMember(input: String) async throws {
        let general = try await Self.expectSameBytes([Self.send(input, #"{"id":1,"title":"t","done":false,"id":2}"#)])
        #expect(!general.isEmpty)
    }

    @Test("a value the parser refuses is the same parse error on both paths", arguments: [
        #"{"id":1,"title":"t","done":false"#, #"{"id":1,"title":"t","done":fals}"#, #"{"id":1,}"#, #"[1,]"#,
        #"{"id":01,"title":"t","done":false}"#, #"{"id":1,"title":"\x","done":false}"#,
    ])
    func unparseableValues(value: String) async throws {
        let general = try await Self.expectSameBytes([Self.send("edit", value)])
        #expect(general.contains { $0.contains("-32700") })
    }

    @Test("a value nested past maxDepth is refused alike; one level less is taken", arguments: [3, 4])
    func depthLimit(maxDepth: Int) async throws {
        let limits = VMLimits(maxDepth: maxDepth)
        // The envelope, params and the record make 3 levels; the tags array a 4th.
        let frames = [Self.send("edit", #"{"id":1,"title":"t","done":false}"#),
                      Self.send("edit", #"{"id":[2],"title":"t","done":false}"#)]
        let general = try await Self.expectSameBytes(frames, limits: limits)
        #expect(general.contains { $0.contains("maxDepth") } == (maxDepth == 3))
    }

    @Test("records the hand-written item reads from bytes, and ones it leaves to the general path, answer alike", arguments: [
        #"{"id":5,"title":"plain","done":true}"#, #"{"title":"日本語 😀","done":false,"id":-6}"#,
        #"{"id":7,"title":"brackets }]{[ and , : inside","done":false}"#,
        #"{"id":8,"title":"esc\\aped \"q\" \u00e9","done":true}"#, #"{"\u0069d":9,"title":"t","done":true}"#,
        #"{"id":10,"title":"t","done":true,"title":"u"}"#, #"{"id":11,"title":"t","done":true,"done":false}"#,
        #"{"id":123456789012345678901,"title":"t","done":true}"#, #"{"id":-0,"title":"t","done":true}"#,
        #"{"id":1e1,"title":"t","done":true}"#, #"{"id":12,"title":"t","done":"true"}"#, #"{"id":13,"title":7,"done":true}"#,
        #"{"id":14,"title":"t","done":true,"extra":{"deep":[1,[2]]}}"#, #"{"id":15,"title":"t"}"#, #"{}"#,
        #"{"id":16,"title":"t","done":tru}"#, #"{"id":17,"title":"t","done":true}}"#, #"{"id":18,"title":"t\"#,
        #"[{"id":19,"title":"t","done":true}]"#, "{\"id\":20,\"title\":\"tab\there\",\"done\":true}",
    ])
    func itemReadFromBytes(value: String) async throws {
        _ = try await Self.expectSameBytes([Self.send("editItem", value), Self.send("editItem", value, id: "null")])
    }

    @Test("members in any order around the value, and a value for an unknown instance, answer alike", arguments: [
        #"{"jsonrpc":"2.0","id":"f1","method":"vm.send","params":{"value":{"id":1,"title":"t","done":true},"input":"editItem","instance":"e"}}"#,
        #"{"params":{"input":"editItem","value":{"id":2,"title":"t","done":true},"instance":"e"},"id":"f2","method":"vm.send","jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":"f3","method":"vm.send","params":{"instance":"nope","input":"editItem","value":{"id":3,"title":"t","done":true}}}"#,
        #"{"jsonrpc":"2.0","id":"f4","method":"vm.send","params":{"instance":"nope","input":"editItem","value":{"id":4,"title":"t","done":tru}}}"#,
        #"{"jsonrpc":"2.0","id":"f5","method":"vm.send","params":{"instance":"e","input":"nope","value":{"id":5,}}}"#,
        #"{"jsonrpc":"2.0","id":"f6","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":6,"title":"t","done":true}"#,
        #"{"jsonrpc":"2.0","id":"f7","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":7,"title":"}"}}"#,
        #"{"jsonrpc":"2.0","id":"f8","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":8,"title":"t","done":true},"extra":{}}}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":9,"title":"t","done":true}},"id":{}}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":\"f10\",\"method\":\"vm.send\",\"params\":{\"instance\":\"e\",\"input\":\"editItem\",\"value\":{\"id\":10,\"title\":\"t\",\"done\":true} \t} \t} ",
        #"{"jsonrpc":"2.0","id":"f11","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":11,"title":"t","done":true}}}}"#,
        #"{"jsonrpc":"2.0","id":"f12","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":12,"title":"t","done":true},"value":{}}}"#,
        #"{"jsonrpc":"2.0","id":"f13","method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":13,"title":"t","done":true}},"params":{}}"#,
        #"{"jsonrpc":"2.0","id":"f14","method":"vm.send","params":{"instance":"e","input":"editItem","value":{}}}"#,
        #"{"jsonrpc":"2.0","id":"f15","params":{"instance":"e","input":"editItem","value":{"id":15,"title":"t","done":true}}}"#,
    ])
    func framesAroundTheValue(frame: String) async throws {
        _ = try await Self.expectSameBytes([frame])
    }

    @Test("a title that is not UTF-8 is the same parse error on both paths")
    func invalidUTF8Title() async throws {
        func run(fastPath: Bool) async throws -> [String] {
            var registry = ViewModelRegistry()
            try registry.register(TodoRecord.self)
            let fixture = try InMemoryServer.forTests(registry: registry)
            fixture.server.sendRoute.isEnabled = fastPath
            let client = fixture.open()
            _ = try await client.result("vm.create", json(#"{"type":"TodoRecord","id":"e"}"#))
            let before = client.sink.messages.count
            var bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"e","input":"editItem","value":{"id":1,"title":"a"#.utf8)
            bytes += [0xC3, 0x28]
            bytes += Array(#"","done":true}}}"#.utf8)
            bytes.withUnsafeBytes { fixture.server.frameReceived($0, on: client.id) }
            return Array(client.sink.texts.dropFirst(before))
        }
        let fast = try await run(fastPath: true)
        #expect(fast == (try await run(fastPath: false)))
        #expect(fast.count == 1 && fast[0].contains("-32700"))
    }

    @Test("at a maxDepth that leaves no room for the record, the item is refused alike", arguments: [2, 3])
    func itemDepthLimit(maxDepth: Int) async throws {
        let general = try await Self.expectSameBytes([Self.send("editItem", #"{"id":1,"title":"t","done":false}"#)],
                                                     limits: VMLimits(maxDepth: maxDepth))
        #expect(general.contains { $0.contains("maxDepth") } == (maxDepth == 2))
    }

    @Test("a notification with a wrong record reports the same vm.error on both paths")
    func wrongRecordNotification() async throws {
        let frame = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"e","input":"edit","value":{"id":true}}}"#
        let general = try await Self.expectSameBytes([frame])
        #expect(general.contains { $0.contains("vm.error") })
    }
}
