import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport

/// The one-pass envelope reader (RequestFrame.swift) on its own, and the server with it against
/// the general path: every frame below goes to two servers set up alike, one reading envelopes
/// in one pass and one parsing every frame into a tree, and each client's bytes must be identical.
@Suite("One-pass request frames")
struct RequestFrameTests {
    /// What the reader makes of `frame`.
    private static func read(_ frame: String, maxDepth: Int = 64) -> ReadFrame? {
        Array(frame.utf8).withUnsafeBytes { ReadFrame(RequestFrame.read($0, options: JSONParseOptions(maxDepth: maxDepth))) }
    }

    /// The fields of a ``RequestFrame`` (which is noncopyable), to compare.
    struct ReadFrame {
        /// The id as JSON (`nil` for a notification).
        var id: JSONValue?
        var method: String
        var params: JSONValue?
        var typed: RequestFrame.TypedParams?

        init?(_ frame: consuming RequestFrame?) {
            guard let frame else { return nil }
            id = frame.id?.jsonValue
            method = frame.method
            params = frame.params
            typed = frame.typed
        }
    }

    /// A frame and what the reader must make of it.
    struct Plain: Sendable, CustomTestStringConvertible {
        var frame: String
        /// The id as JSON (`nil` for a notification).
        var id: JSONValue?
        var method: String
        var params: String?
        var testDescription: String { frame }
    }

    @Test("plain requests and notifications come back with their id, method and params", arguments: [
        Plain(frame: #"{"jsonrpc":"2.0","id":2,"method":"vm.create","params":{"type":"Counter"}}"#,
              id: 2, method: "vm.create", params: #"{"type":"Counter"}"#),
        Plain(frame: #"{"jsonrpc": "2.0", "id": 12, "method": "vm.create", "params": {"type": "Counter", "args": {"a": [1, 2.5, "x\u0041"]}}}"#,
              id: 12, method: "vm.create", params: #"{"type":"Counter","args":{"a":[1,2.5,"xA"]}}"#),
        Plain(frame: #" { "params" : [ ] , "method" : "vm.list" , "id" : "r-1" , "jsonrpc" : "2.0" } "#,
              id: "r-1", method: "vm.list", params: "[]"),
        Plain(frame: #"{"jsonrpc":"2.0","id":null,"method":"daemon.info"}"#, id: .null, method: "daemon.info", params: nil),
        Plain(frame: #"{"jsonrpc":"2.0","id":-5,"method":"vm.get","params":{"instance":"t","output":"count"}}"#,
              id: -5, method: "vm.get", params: #"{"instance":"t","output":"count"}"#),
        Plain(frame: #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}"#,
              id: nil, method: "$/cancelRequest", params: #"{"id":3}"#),
        Plain(frame: #"{"jsonrpc":"2.0","id":1,"method":"no.such.method"}"#, id: 1, method: "no.such.method", params: nil),
        Plain(frame: #"{"jsonrpc":"2.0","id":1,"method":"vm.créer"}"#, id: 1, method: "vm.créer", params: nil),
    ])
    func plainCalls(plain: Plain) throws {
        guard let read = Self.read(plain.frame) else {
            Issue.record("not read in one pass: \(plain.frame)")
            return
        }
        #expect(read.id == plain.id)
        #expect(read.method == plain.method)
        #expect(read.params == plain.params.map { json($0) })
    }

    @Test("frames the reader leaves to the general path", arguments: [
        #"[{"jsonrpc":"2.0","id":1,"method":"vm.list"}]"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","extra":1}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","method":"vm.types"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","params":{},"params":{}}"#,
        #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"vm.list"}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"vm.list"}"#,
        #"{"id":1,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":1}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.\u006cist"}"#,
        #"{"jsonrpc":"2.0","id":"\u0041","method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":1.5,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":1e3,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":12345678901234567890,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":true,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":7}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","params":"x"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","params":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter",}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"}} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter"},}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list"} {}"#,
        "",
        "{}",
    ])
    func leftToGeneralPath(frame: String) {
        #expect(Self.read(frame) == nil)
    }

    @Test("params nested deeper than maxDepth, or an envelope at maxDepth 0, are left to the general path")
    func depthLimits() {
        let frame = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","args":{"a":[1]}}}"#
        #expect(Self.read(frame, maxDepth: 4) != nil)
        #expect(Self.read(frame, maxDepth: 3) == nil)
        #expect(Self.read(#"{"jsonrpc":"2.0","id":1,"method":"vm.list"}"#, maxDepth: 1) != nil)
        #expect(Self.read(#"{"jsonrpc":"2.0","id":1,"method":"vm.list"}"#, maxDepth: 0) == nil)
    }

    @Test("a method name that is not UTF-8 is left to the general path")
    func invalidUTF8Method() {
        var bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"vm."#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}"#.utf8)
        let read = bytes.withUnsafeBytes { ReadFrame(RequestFrame.read($0, options: JSONParseOptions(maxDepth: 64))) }
        #expect(read == nil)
    }

    @Test("a vm.send is read like any request, its params by the parser")
    func sends() {
        let frame = #"{"params":{"instance":"t","input":"add","value":1.5},"jsonrpc":"2.0","method":"vm.send"}"#
        guard let read = Self.read(frame) else {
            Issue.record("a send is not read in one pass")
            return
        }
        #expect(read.id == nil && read.method == "vm.send")
        #expect(read.params == json(#"{"instance":"t","input":"add","value":1.5}"#))
    }

    // MARK: The server, against the general path

    /// Runs `frames` on a fresh server (a Tally `t`) and returns every message the client
    /// received, as raw text.
    private static func transcript(_ frames: [String], onePass: Bool, limits: VMLimits) async throws -> [String] {
        let fixture = try InMemoryServer.forTests(limits: limits)
        fixture.server.sendRoute.isEnabled = onePass
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        let before = client.sink.messages.count
        for frame in frames { try await client.send(frame) }
        return Array(client.sink.texts.dropFirst(before))
    }

    /// Runs `frames` on the two servers and expects the same bytes from both (also used by
    /// InstanceCallFrameTests).
    static func expectSameBytes(
        _ frames: [String], limits: VMLimits = VMLimits(), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let onePass = try await transcript(frames, onePass: true, limits: limits)
        let general = try await transcript(frames, onePass: false, limits: limits)
        #expect(onePass == general, sourceLocation: sourceLocation)
        #expect(!general.isEmpty, "each case makes the server write something", sourceLocation: sourceLocation)
    }

    @Test("requests answer exactly as on the general path", arguments: [
        #"{"jsonrpc":"2.0","id":2,"method":"vm.create","params":{"type":"Tally"}}"#,
        #"{"jsonrpc": "2.0", "id": 3, "method": "vm.create", "params": {"type": "Tally", "id": "u", "scope": "connection"}}"#,
        #"{"jsonrpc":"2.0","id":"c","method":"vm.create","params":{"type":"Tally","subscribe":{}}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Nope"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Tally","id":"t"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Tally","bogus":1}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":["Tally"]}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create"}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Nope","type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"vm.get","params":{"instance":"t","output":"count"}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"vm.types","params":{}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"vm.subscribe","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"no.such.method"}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"nope","value":1.5}}"#,
        #"{"jsonrpc":"2.0","id":8,"method":"vm.send","params":{"instance":"t","input":"add","value":[1]}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"vm.create","params":{"type":"Tally",}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"vm.create","params":{"type":"Tally"}} x"#,
        #"{"jsonrpc":"2.0","id":9.5,"method":"vm.list"}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"vm.list","params":"x"}"#,
        #"{"id":9,"method":"vm.list"}"#,
    ])
    func sameReplies(frame: String) async throws {
        try await Self.expectSameBytes([frame, frame])
    }

    @Test("runs that switch between sends and other requests answer exactly as on the general path")
    func mixedRuns() async throws {
        let create = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}}"#
        let send = #"{"jsonrpc":"2.0","id":2,"method":"vm.send","params":{"instance":"t","input":"add","value":2}}"#
        let unusualSend = #"{"jsonrpc":"2.0","id":3,"method":"vm.send","params":{"instance":"t","input":"add","value":2.0}}"#
        let get = #"{"jsonrpc":"2.0","id":4,"method":"vm.get","params":{"instance":"t","output":"count"}}"#
        let badSend = #"{"jsonrpc":"2.0","id":5,"method":"vm.send","params":{"instance":"nope","input":"add"}}"#
        try await Self.expectSameBytes([
            create, send, send, get, create, create, unusualSend, send, unusualSend, unusualSend, get, badSend, send, badSend, get,
        ])
    }

    @Test("the typed send reader goes first after a plain send, the request reader after anything else")
    func readerOrder() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        #expect(fixture.server.expectsPlainSend)
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        #expect(!fixture.server.expectsPlainSend)
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#)
        #expect(fixture.server.expectsPlainSend)
        // An escaped name is one of the shapes the typed reader leaves to the request reader.
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"\u0061dd","value":1.5}}"#)
        #expect(!fixture.server.expectsPlainSend)
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#)
        #expect(fixture.server.expectsPlainSend)
        #expect(try await client.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":2}"#))
        #expect(!fixture.server.expectsPlainSend)
    }

    @Test("params deeper than maxDepth give the same error on both paths")
    func sameDepthError() async throws {
        try await Self.expectSameBytes(
            [#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","args":{"a":[[1]]}}}"#],
            limits: VMLimits(maxDepth: 3))
    }
}
