import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport

/// The `vm.send` fast path (Server+SendFastPath.swift) against the general path: every frame
/// below goes to two servers set up alike, one with the fast path and one without, and the
/// bytes each client receives must be identical.
@Suite("The vm.send fast path")
struct SendFastPathTests {
    /// Runs `frames` on a fresh server (a Tally `t`, subscribed by the sending client) and
    /// returns every message the client received, as raw text.
    private static func transcript(_ frames: [String], fastPath: Bool, setUp: (RPCSession) -> Void = { _ in }) async throws -> [String] {
        let fixture = try InMemoryServer.forTests()
        fixture.server.sendRoute.isEnabled = fastPath
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))
        setUp(client)
        let before = client.sink.messages.count
        for frame in frames { try await client.send(frame) }
        return Array(client.sink.texts.dropFirst(before))
    }

    private static func expectSameBytes(_ frames: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let fast = try await transcript(frames, fastPath: true)
        let general = try await transcript(frames, fastPath: false)
        #expect(fast == general, sourceLocation: sourceLocation)
        #expect(!general.isEmpty, "each case makes the server write something", sourceLocation: sourceLocation)
    }

    @Test("plain sends answer and emit exactly as the general path does", arguments: [
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"vm.send","params":{"instance":"t","input":"add","value":3}}"#,
        #"{"jsonrpc":"2.0","id":-7,"method":"vm.send","params":{"instance":"t","input":"add","value":-3}}"#,
        #"{"jsonrpc":"2.0","id":"a-b","method":"vm.send","params":{"instance":"t","input":"set","value":0}}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"vm.send","params":{"instance":"t","input":"decrement","value":null}}"#,
        #" { "params" : { "value" : 2 , "input" : "add" , "instance" : "t" } , "method" : "vm.send" , "jsonrpc" : "2.0" , "id" : 0 } "#,
        #"{"jsonrpc":"2.0","id":123456789012345678,"method":"vm.send","params":{"instance":"t","input":"add","value":999999999999999999}}"#,
        #"{"jsonrpc":"2.0","id":-999999999999999999,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"method":"vm.send","params":{"value":1,"input":"add","instance":"t"},"jsonrpc":"2.0","id":5}"#,
        #"{"params":{"input":"add","instance":"t"},"method":"vm.send","id":6,"jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":100,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
    ])
    func plainSends(frame: String) async throws {
        try await Self.expectSameBytes([frame, frame])
    }

    @Test("failed sends give the same errors and vm.error notifications", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"nope","input":"add"}}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"nope","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"nope"}}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"nope","value":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":"x"}}"#,
        #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add","value":true}}"#,
        #"{"jsonrpc":"2.0","id":"s","method":"vm.send","params":{"instance":"t","input":"set"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":""}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":1,"input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","extra":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":["t","add"]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":"t"}"#,
    ])
    func failedSends(frame: String) async throws {
        try await Self.expectSameBytes([frame])
    }

    @Test("unusual frames the fast path leaves alone are answered as before", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":1.5}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":2.0}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":1e2}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":-0}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":01}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":12345678901234567890}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":{"a":1}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":[1]}}"#,
        #"{"jsonrpc":"2.0","id":1.0,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1e0,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":12345678901234567890,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":true,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":"\u0041","method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"\u0074","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"a\"dd"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":"\u00e9"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"té","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","input":"set"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","method":"vm.get","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"},"extra":[1]}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.00","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.sen","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpcx":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","idx":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","i":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"methods":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","param":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instances":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instanc":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","inputs":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","valu":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value\u0000":1}}"#,
        #"{"id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.sendx","params":{"instance":"t","input":"add"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"},}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add",}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add""#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":nul}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add","value":truex}}"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t","input":"add"}}]"#,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"vm.send\",\"params\":{\"instance\":\"t\t\",\"input\":\"add\"}}",
    ])
    func unusualFrames(frame: String) async throws {
        try await Self.expectSameBytes([frame])
    }

    @Test("the reply written in place carries vm.send's result as the general path encodes it")
    func encodedSendResultMatchesTheResult() {
        let encoded = Server.encodedSendResult
        let text = String(decoding: UnsafeBufferPointer(start: encoded.utf8Start, count: encoded.utf8CodeUnitCount), as: UTF8.self)
        #expect(text == String(decoding: VMSendMethod.result.encodedBytes(), as: UTF8.self))
    }

    @Test("a name that is not UTF-8 is a parse error on both paths")
    func invalidUTF8() async throws {
        func run(fastPath: Bool) async throws -> [String] {
            let fixture = try InMemoryServer.forTests()
            fixture.server.sendRoute.isEnabled = fastPath
            let client = fixture.open()
            var bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.send","params":{"instance":"t"#.utf8)
            bytes += [0xFF, 0xFE]
            bytes += Array(#"","input":"add"}}"#.utf8)
            bytes.withUnsafeBytes { fixture.server.frameReceived($0, on: client.id) }
            return client.sink.texts
        }
        let fast = try await run(fastPath: true)
        #expect(fast == (try await run(fastPath: false)))
        #expect(fast.count == 1 && fast[0].contains("-32700"))
    }

    @Test("a destroyed instance's id, taken again, routes to the new instance")
    func routeFollowsRecreatedInstance() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let send = #"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add","value":5}}"#
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        try await client.send(send)
        #expect(try await client.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":5}"#))
        _ = try await client.result("vm.destroy", json(#"{"instance":"t"}"#))
        try await client.send(send)
        let errors = try await client.notifications("vm.error")
        #expect(errors.count == 1)
        #expect(errors.first?["params"]?["error"]?["code"] == .integer(Int64(VMErrorCode.unknownInstance.number)))
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        try await client.send(send)
        try await client.send(send)
        #expect(try await client.result("vm.get", json(#"{"instance":"t","output":"count"}"#)) == json(#"{"value":10}"#))
    }

    @Test("sends alternating between two instances each reach their own")
    func alternatingInstances() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"a"}"#))
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"b"}"#))
        for _ in 0..<3 {
            try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"a","input":"add","value":1}}"#)
            try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"b","input":"add","value":10}}"#)
            try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"b","input":"set","value":100}}"#)
        }
        #expect(try await client.result("vm.get", json(#"{"instance":"a","output":"count"}"#)) == json(#"{"value":3}"#))
        #expect(try await client.result("vm.get", json(#"{"instance":"b","output":"count"}"#)) == json(#"{"value":100}"#))
    }

    @Test("while a monitor listens, sends are reported to it as parsed messages")
    func monitorSeesSends() async throws {
        let fixture = try InMemoryServer.forTests()
        let watcher = fixture.open()
        _ = try await watcher.result("daemon.monitor", json("{}"))
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        _ = try await watcher.takeAvailable()
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#)
        let reported = try await watcher.takeAvailable().filter { $0["params"]?["message"]?["method"] == "vm.send" }
        #expect(reported.count == 1)
    }
}

@Suite("The vm.send route cache")
struct SendRouteCacheTests {
    private static func names(_ instance: String, _ input: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        Array(instance.utf8).withUnsafeBufferPointer { instanceBytes in
            Array(input.utf8).withUnsafeBufferPointer { inputBytes in body(instanceBytes, inputBytes) }
        }
    }

    @Test("a plain send takes the fast path and remembers its instance and input, until the instance goes")
    func plainSendIsCached() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        #expect(!Self.names("t", "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#)
        #expect(Self.names("t", "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        #expect(!Self.names("t", "set") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        #expect(!Self.names("u", "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        _ = try await client.result("vm.destroy", json(#"{"instance":"t"}"#))
        #expect(!Self.names("t", "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
    }

    @Test("names of eight bytes and more match only when every byte does", arguments: ["abcdefgh", "instance-0017", "sixteen-bytes-id"])
    func longNamesCompareEveryByte(name: String) async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"\#(name)"}"#))
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"\#(name)","input":"add"}}"#)
        #expect(Self.names(name, "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        var bytes = Array(name.utf8)
        for index in bytes.indices {
            let original = bytes[index]
            bytes[index] = original == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
            let other = String(decoding: bytes, as: UTF8.self)
            #expect(!Self.names(other, "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil }, "\(other)")
            bytes[index] = original
        }
        #expect(!Self.names(name + "x", "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
        #expect(!Self.names(String(name.dropLast()), "add") { fixture.server.sendRoute.lookup(instance: $0, input: $1) != nil })
    }
}
