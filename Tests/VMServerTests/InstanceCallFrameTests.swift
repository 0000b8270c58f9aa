import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport

/// `vm.create {type}` and `vm.destroy {instance}` read without a tree (RequestFrame.swift's
/// `TypedParams`) and answered in place (`Outbox.sendSuccess`): the reader on its own, then the
/// server against the general path, byte for byte.
@Suite("Typed vm.create and vm.destroy frames")
struct InstanceCallFrameTests {
    private static func read(_ frame: String, maxDepth: Int = 64) -> RequestFrameTests.ReadFrame? {
        var isSend = false
        return Array(frame.utf8).withUnsafeBytes {
            RequestFrameTests.ReadFrame(RequestFrame.read(
                $0, options: JSONParseOptions(maxDepth: maxDepth), yieldingSends: true, typingParams: true, isSend: &isSend))
        }
    }

    struct Typed: Sendable, CustomTestStringConvertible {
        var frame: String
        var typed: RequestFrame.TypedParams
        var testDescription: String { frame }
    }

    @Test("the common params of vm.create and vm.destroy are read without a tree", arguments: [
        Typed(frame: #"{"jsonrpc":"2.0","id":2,"method":"vm.create","params":{"type":"Counter"}}"#, typed: .create(type: "Counter")),
        Typed(frame: #" { "jsonrpc" : "2.0" , "method" : "vm.create" , "params" : { "type" : "Tally" } , "id" : "x" } "#,
              typed: .create(type: "Tally")),
        Typed(frame: #"{"jsonrpc":"2.0","id":3,"method":"vm.create","params":{"type":"Zähler"}}"#, typed: .create(type: "Zähler")),
        Typed(frame: #"{"jsonrpc":"2.0","id":4,"method":"vm.destroy","params":{"instance":"counter-12"}}"#,
              typed: .destroy(instance: "counter-12")),
        Typed(frame: #"{"jsonrpc":"2.0","id":5,"method":"vm.destroy","params":{"instance":""}}"#, typed: .destroy(instance: "")),
    ])
    func typedParams(typed: Typed) {
        guard let read = Self.read(typed.frame) else {
            Issue.record("not read in one pass")
            return
        }
        #expect(read.typed == typed.typed)
        #expect(read.params == nil)
        switch typed.typed {
        case .create: #expect(read.method == VMCreateMethod.name)
        case .destroy: #expect(read.method == VMDestroyMethod.name)
        }
    }

    @Test("other params of vm.create and vm.destroy are parsed as before", arguments: [
        #"{"jsonrpc":"2.0","id":1,"params":{"type":"Tally"},"method":"vm.create"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","id":"u"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"id":"u","type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"T\u0061lly"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":7}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":["Tally"]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.destroy","params":{"instance":"t","extra":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.destroy","params":{"Instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"typ":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"types":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"instance":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.destroy","params":{"type":"t"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.destroy","params":{"instanc":"t"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.destroy","params":{"instances":"t"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.list","params":{"type":"Tally"}}"#,
    ])
    func parsedAsBefore(frame: String) {
        guard let read = Self.read(frame) else {
            Issue.record("not read in one pass")
            return
        }
        #expect(read.typed == nil)
        #expect(read.params != nil)
    }

    @Test("params the general path refuses leave the whole frame to it", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":""}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"},}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"},"params":{"type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}"#,
    ])
    func leftToGeneralPath(frame: String) {
        #expect(Self.read(frame) == nil)
    }

    @Test("the type the host created last stands for a name with its bytes, and only for that name", arguments: [
        ("Counter", "Counter"), ("Count", "Counter"), ("Counters", "Counter"), ("counter", "Counter"), ("", "Counter"),
        ("Zähler", "Zähler"), ("Zahler", "Zähler"),
    ])
    func knownType(known: String, sent: String) {
        let frame = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"\#(sent)"}}"#
        var isSend = false
        let read = Array(frame.utf8).withUnsafeBytes {
            RequestFrameTests.ReadFrame(RequestFrame.read(
                $0, options: JSONParseOptions(maxDepth: 64), yieldingSends: true, typingParams: true, knownType: known, isSend: &isSend))
        }
        #expect(read?.typed == .create(type: sent))
    }

    @Test("typed params are read only where the general parser would read the params object")
    func depth() {
        let frame = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}}"#
        #expect(Self.read(frame, maxDepth: 2)?.typed == .create(type: "Tally"))
        #expect(Self.read(frame, maxDepth: 1) == nil)
    }

    @Test("a type that is not UTF-8 is left to the general path")
    func invalidUTF8() {
        var bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"T"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}}"#.utf8)
        var isSend = false
        let read = bytes.withUnsafeBytes {
            RequestFrameTests.ReadFrame(RequestFrame.read(
                $0, options: JSONParseOptions(maxDepth: 64), yieldingSends: true, typingParams: true, isSend: &isSend))
        }
        #expect(read == nil)
    }

    // MARK: The results written in place

    @Test("the vm.destroy reply written in place carries the result as the general path encodes it")
    func destroyedResult() {
        let text = Server.destroyedResult
        let bytes = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        #expect(bytes == VMDestroyMethod.result.encodedBytes())
    }

    @Test("a vm.create result written in place is its JSON text", arguments: [
        VMCreateMethod.Result(instance: "counter-1", type: "Counter", scope: .daemon),
        VMCreateMethod.Result(instance: "u", type: "Tally", scope: .connection),
        VMCreateMethod.Result(instance: "a.b:c_d-9", type: "Zähler", scope: .daemon, subscription: "s-3"),
        VMCreateMethod.Result(instance: "d", type: "Tally", scope: .daemon, subscription: "s1", durable: true),
        VMCreateMethod.Result(instance: "d", type: "Tally", scope: .daemon, durable: true),
    ])
    func createdResultText(result: VMCreateMethod.Result) throws {
        let count = try #require(result.plainTextByteCount)
        let written = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            initialized = UnsafeMutableRawPointer(base).distance(to: result.writePlainText(to: UnsafeMutableRawPointer(base)))
        }
        #expect(written.count == count)
        #expect(written == result.jsonValue.encodedBytes())
    }

    @Test("a vm.create result with a string that needs escaping is not written in place", arguments: [
        VMCreateMethod.Result(instance: "a\"b", type: "Tally", scope: .daemon),
        VMCreateMethod.Result(instance: "a", type: "T\\", scope: .daemon),
        VMCreateMethod.Result(instance: "a", type: "Tally", scope: .daemon, subscription: "s\n1"),
    ])
    func escapedResults(result: VMCreateMethod.Result) {
        #expect(result.plainTextByteCount == nil)
    }

    // MARK: The server, against the general path

    /// Two servers set up alike, one reading frames in one pass and one parsing every frame,
    /// must write the same bytes (RequestFrameTests: each starts with a Tally `t`).
    private static func expectSameBytes(_ frames: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await RequestFrameTests.expectSameBytes(frames, sourceLocation: sourceLocation)
    }

    @Test("vm.create and vm.destroy answer exactly as on the general path", arguments: [
        #"{"jsonrpc":"2.0","id":2,"method":"vm.create","params":{"type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":-7,"method":"vm.create","params":{"type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":"c-1","method":"vm.create","params":{"type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"vm.create","params":{"type":"Tally"}}"#,
        #"{"jsonrpc":"2.0","method":"vm.create","params":{"type":"Tally"}}"#,
        #"{ "jsonrpc" : "2.0" , "id" : 3 , "method" : "vm.create" , "params" : { "type" : "Tally" } }"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Nope"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":""}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"T\u0061lly"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Tally","id":"u"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Tally","type":"Nope"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":"Tally","subscribe":{}}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"vm.create","params":{"type":null}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":"d","method":"vm.destroy","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","method":"vm.destroy","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":"nope"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":""}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":"t","bogus":true}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{"instance":5}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"vm.destroy","params":{}}"#,
        #"[{"jsonrpc":"2.0","id":7,"method":"vm.create","params":{"type":"Tally"}},{"jsonrpc":"2.0","id":8,"method":"vm.destroy","params":{"instance":"t"}}]"#,
    ])
    func sameReplies(frame: String) async throws {
        // The list shows what a notification did.
        try await Self.expectSameBytes([frame, frame, #"{"jsonrpc":"2.0","id":99,"method":"vm.list"}"#])
    }

    @Test("a run of creates and destroys answers exactly as on the general path")
    func runs() async throws {
        let create = #"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally"}}"#
        let destroy = { (id: String) in #"{"jsonrpc":"2.0","id":2,"method":"vm.destroy","params":{"instance":"\#(id)"}}"# }
        let send = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"tally-1","input":"add","value":2}}"#
        try await Self.expectSameBytes([
            create, create, send, destroy("tally-1"), destroy("tally-1"), create, destroy("tally-2"), destroy("t"), create,
            #"{"jsonrpc":"2.0","id":3,"method":"vm.list"}"#,
        ])
    }
}
