import JSONCore
import Testing
import VMProtocol

/// Matching the ids a run makes up (TapeIds.swift; PROTOCOL.md section 17, "Ids").
@Suite("Ids a replay matches by place")
struct TapeIdsTests {
    /// A SendList-like tape: `send` returns `{uploadId, instance}`, `navigate` announces `{instance}`.
    static let tape = """
        {"tape":3,"type":"T","ids":{"navigate":["/instance"],"send":["/instance","/uploadId"],"scene":[""]}}
        {"event":"action","t":0,"action":"send","outcome":{"result":{"uploadId":2,"instance":"r-2"}}}
        {"event":"output","t":0,"output":"navigate","value":{"instance":"r-2"}}
        {"event":"action","t":0,"action":"send","outcome":{"result":{"uploadId":3,"instance":"r-3"}}}
        {"event":"output","t":0,"output":"navigate","value":{"instance":"r-3"}}

        """

    static func ids() throws -> TapeIds {
        try TapeIds(tape: Tape.parse(tape))
    }

    @Test("the first meeting binds: later the replayed ids read as the recorded ones, wherever they are listed")
    func firstMeetingBinds() throws {
        let ids = try Self.ids()
        #expect(ids.recorded(["uploadId": 7, "instance": "r-9"], port: "send", expected: ["uploadId": 2, "instance": "r-2"])
            == ["uploadId": 2, "instance": "r-2"])
        #expect(ids.recorded(output: "navigate", value: ["instance": "r-9"]) == ["instance": "r-2"])
        #expect(ids.recorded(["uploadId": 8, "instance": "r-10"], port: "send", expected: ["uploadId": 3, "instance": "r-3"])
            == ["uploadId": 3, "instance": "r-3"])
        #expect(ids.recorded(output: "navigate", value: ["instance": "r-10"]) == ["instance": "r-3"])
    }

    @Test("a replayed id met where another recorded id is bound stays as it came, and so diverges")
    func conflictsDiverge() throws {
        let ids = try Self.ids()
        _ = ids.recorded(output: "navigate", value: ["instance": "r-9"])       // r-2 ↔ r-9
        // The second announcement names the first receipt again: it reads as r-2, not r-3.
        _ = ids.recorded(["uploadId": 8, "instance": "r-10"], port: "send", expected: ["uploadId": 3, "instance": "r-3"])
        #expect(ids.recorded(output: "navigate", value: ["instance": "r-9"]) == ["instance": "r-2"])
        // A recorded id already bound to r-9 is not bound again to another replayed id.
        #expect(ids.recorded(["uploadId": 9, "instance": "r-11"], port: "send", expected: ["uploadId": 4, "instance": "r-2"])
            == ["uploadId": 4, "instance": "r-11"])
    }

    @Test("values at other places, and outputs the header does not list, are compared as they are")
    func otherPlacesUntouched() throws {
        let ids = try Self.ids()
        _ = ids.recorded(["uploadId": 7, "instance": "r-9"], port: "send", expected: ["uploadId": 2, "instance": "r-2"])
        #expect(ids.recorded(output: "count", value: "r-9") == "r-9")
        #expect(ids.recorded(["note": "r-9"], port: "send", expected: ["note": "r-2"]) == ["note": "r-9"])
    }

    @Test("a whole value can be an id (the pointer \"\")")
    func wholeValue() throws {
        let ids = try Self.ids()
        #expect(ids.recorded("s-5", port: "scene", expected: "s-1") == "s-1")
        #expect(ids.replayed(["open": "s-1"]) == ["open": "s-5"])
    }

    @Test("a later step's value naming a recorded id is sent the replayed one, in arrays and objects too")
    func stepsSendReplayedIds() throws {
        let ids = try Self.ids()
        #expect(ids.replayed(["r-2"]) == ["r-2"], "nothing bound yet")
        _ = ids.recorded(["uploadId": 7, "instance": "r-9"], port: "send", expected: ["uploadId": 2, "instance": "r-2"])
        #expect(ids.replayed(["close": ["r-2", "r-3"], "count": 2]) == ["close": ["r-9", "r-3"], "count": 2])
        #expect(ids.replayed("r-2") == "r-9")
    }

    @Test("a type's schemas give the header's places: marked members, nested, escaped as JSON Pointers")
    func headerFromSchemas() {
        let marked = JSONSchemaBuilder.runId(["type": "string"])
        let result = JSONSchemaBuilder.object(["uploadId": JSONSchemaBuilder.runId(["type": "integer"]), "a/b": marked,
                                               "scene": JSONSchemaBuilder.object(["instance": marked])])
        #expect(TapeIds.header(outputs: [("whole", marked), ("count", ["type": "integer"])], actions: [("send", result)])
            == ["whole": [""], "send": ["/a~1b", "/scene/instance", "/uploadId"]])
        #expect(TapeIds.header(outputs: [("count", ["type": "integer"])], actions: []) == nil)
    }

    @Test("the replay's instance id, and ids derived from it (parent.name), read as the tape's in outputs and results only")
    func instanceIdRenamed() throws {
        let ids = TapeIds(tape: try Tape.parse(#"{"tape":2,"type":"Inbox","instance":"inbox"}"#), replayInstance: "inbox-7")
        #expect(!ids.isEmpty)
        #expect(ids.recorded(output: "rows", value: [["message": "m3", "instance": "inbox-7.m3"], ["instance": "inbox-7"]])
            == [["message": "m3", "instance": "inbox.m3"], ["instance": "inbox"]])
        #expect(ids.recorded("inbox-70.m3", port: "open", expected: nil) == "inbox-70.m3", "another instance's child")
        #expect(ids.replayed(["inbox", "inbox.m3"]) == ["inbox", "inbox.m3"], "steps go out as taped")
        let same = TapeIds(tape: try Tape.parse(#"{"tape":2,"type":"Inbox","instance":"inbox"}"#), replayInstance: "inbox")
        #expect(same.isEmpty)
    }

    @Test("a tape without ids (version 2) has none to match")
    func noIds() throws {
        let ids = TapeIds(tape: try Tape.parse(#"{"tape":2,"type":"T"}"#))
        #expect(ids.isEmpty)
        #expect(ids.recorded(output: "navigate", value: ["instance": "r-9"]) == ["instance": "r-9"])
    }
}
