import JSONCore
import ReactiveTesting
import Testing
import VMProtocol
import VMServer
import VMTestSupport
import ViewModelCatalog
import ViewModelKit

@Suite("Patch subscriptions: RFC 6902 patches instead of whole state values")
struct PatchSubscriptionTests {
    func todoFixture(limits: VMLimits = VMLimits()) throws -> InMemoryServer {
        var registry = ViewModelRegistry()
        try registry.register(TodoList.self)
        return try InMemoryServer.forTests(limits: limits, registry: registry)
    }

    /// The bytes written to `client` since the last call, one string per message.
    func frames(_ client: RPCSession) async throws -> [String] {
        // The parser keeps member order and the serializer is canonical (RoundTripTests), so
        // re-encoding gives back the bytes as written.
        try await client.takeAvailable().map { $0.encodedString() }
    }

    static let threeItems = #"{"items":[{"title":"milk"},{"title":"bread"},{"title":"a rather long title, so that patches pay"}]}"#

    @Test("a toggle reaches a patch subscriber as one replace, and a value subscriber as today's bytes")
    func patchAndValueFrames() async throws {
        let fixture = try todoFixture()
        let patcher = fixture.open(), plain = fixture.open(), writer = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoList","id":"l","args":\#(Self.threeItems)}"#))
        _ = try await patcher.result("vm.subscribe", json(#"{"instance":"l","outputs":["items"],"patches":true}"#))
        _ = try await plain.result("vm.subscribe", json(#"{"instance":"l","outputs":["items"]}"#))
        let list = #"[{"id":1,"title":"milk","done":false},{"id":2,"title":"bread","done":false},{"id":3,"title":"a rather long title, so that patches pay","done":false}]"#
        #expect(try await frames(patcher) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"items","seq":1,"value":\#(list),"replay":true}}"#])
        #expect(try await frames(plain) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-2","instance":"l","output":"items","seq":1,"value":\#(list),"replay":true}}"#])
        try await writer.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":2}"#))
        #expect(try await frames(patcher) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"items","seq":2,"patch":[{"op":"replace","path":"/1/done","value":true}]}}"#])
        let toggled = #"[{"id":1,"title":"milk","done":false},{"id":2,"title":"bread","done":true},{"id":3,"title":"a rather long title, so that patches pay","done":false}]"#
        #expect(try await frames(plain) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-2","instance":"l","output":"items","seq":2,"value":\#(toggled)}}"#])
    }

    @Test("a change whose patch is not shorter than the value goes out as the value")
    func fallsBackToValue() async throws {
        let fixture = try todoFixture()
        let patcher = fixture.open()
        _ = try await patcher.result("vm.create", json(#"{"type":"TodoList","id":"l","args":{"items":[{"title":"a","done":true},{"title":"b","done":true}]},"subscribe":{"patches":true}}"#))
        _ = try await patcher.takeAvailable()
        try await patcher.notify("vm.send", json(#"{"instance":"l","input":"clearDone"}"#))
        #expect(try await frames(patcher) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"items","seq":3,"value":[]}}"#])
        try await patcher.notify("vm.send", json(#"{"instance":"l","input":"add","value":"c"}"#))
        // `remaining` 0 -> 1 is a scalar: its patch is longer than `1`.
        #expect(try await frames(patcher) == [
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"items","seq":4,"value":[{"id":3,"title":"c","done":false}]}}"#,
            #"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"remaining","seq":5,"value":1}}"#,
        ])
    }

    @Test("without replay the first value is whole, and patches follow it")
    func firstValueIsWhole() async throws {
        let fixture = try todoFixture()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"TodoList","id":"l","args":\#(Self.threeItems)}"#))
        _ = try await client.result("vm.subscribe", json(#"{"instance":"l","outputs":["items"],"patches":true,"replay":false}"#))
        try await client.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":1}"#))
        try await client.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":1}"#))
        let messages = try await client.takeAvailable()
        #expect(messages.count == 2)
        #expect(messages.first?["params"]?["value"]?.arrayValue?.count == 3)
        #expect(messages.first?["params"]?["patch"] == nil)
        #expect(messages.last?["params"]?["patch"] == json(#"[{"op":"replace","path":"/0/done","value":false}]"#))
        #expect(messages.last?["params"]?["value"] == nil)
    }

    @Test("after vm.overflow the coalesced value is whole, and patches resume on top of it")
    func overflowCoalescesWholeValues() async throws {
        let fixture = try todoFixture(limits: VMLimits(maxOutboundBytes: 1000))
        let writer = fixture.open(), reader = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoList","id":"l","args":\#(Self.threeItems)}"#))
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"l","outputs":["items"],"patches":true}"#))
        _ = try await reader.takeAvailable()
        reader.sink.holdsBytes = true
        reader.sink.pendingBytes = 1000
        try await writer.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":1}"#))
        try await writer.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":3}"#))
        #expect(try await reader.takeAvailable().isEmpty)
        reader.sink.flush()
        fixture.server.connectionDrained(reader.id)
        let drained = try await reader.takeAvailable()
        #expect(drained.map { $0["method"] } == ["vm.overflow", "vm.output"])
        #expect(drained.last?["params"]?["seq"] == 4)
        #expect(drained.last?["params"]?["value"]?[2]?["done"] == true)
        #expect(drained.last?["params"]?["patch"] == nil)
        try await writer.notify("vm.send", json(#"{"instance":"l","input":"toggle","value":2}"#))
        #expect(try await frames(reader) == [#"{"jsonrpc":"2.0","method":"vm.output","params":{"subscription":"sub-1","instance":"l","output":"items","seq":5,"patch":[{"op":"replace","path":"/1/done","value":true}]}}"#])
    }

    @Test("patches is a boolean, accepted by vm.subscribe and vm.create's subscribe")
    func paramsAreChecked() async throws {
        let fixture = try todoFixture()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"TodoList","id":"l"}"#))
        #expect(try await client.failure("vm.subscribe", json(#"{"instance":"l","patches":"yes"}"#))["code"] == -32602)
        #expect(try await client.failure("vm.create", json(#"{"type":"TodoList","subscribe":{"patches":1}}"#))["data"]?["path"] == "/subscribe/patches")
        #expect(try VMSubscribeMethod.Params(json(#"{"instance":"l","patches":true}"#)).options.patches)
        #expect(try VMSubscribeMethod.Params(json(#"{"instance":"l"}"#)).options.patches == false)
    }

    @Test("random edits: every patch subscriber's materialized value equals vm.get", arguments: [11, 12] as [UInt64])
    func randomEditsMaterialize(seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed)
        let fixture = try todoFixture()
        let writer = fixture.open(), early = fixture.open(), late = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoList","id":"l","args":\#(Self.threeItems)}"#))
        _ = try await early.result("vm.subscribe", json(#"{"instance":"l","patches":true}"#))
        var views: [String: [String: JSONValue]] = ["early": [:], "late": [:]]
        var patchesSeen = 0
        func absorb(_ name: String, _ client: RPCSession) async throws {
            for message in try await client.takeAvailable() {
                guard let params = message["params"], let output = params["output"]?.stringValue else { continue }
                if let patch = params["patch"] {
                    patchesSeen += 1
                    views[name, default: [:]][output] = try JSONPatch(json: patch).applied(to: views[name]?[output] ?? .null)
                } else {
                    views[name, default: [:]][output] = params["value"]
                }
            }
        }
        var nextID = 4
        for step in 0..<300 {
            if step == 50 { _ = try await late.result("vm.subscribe", json(#"{"instance":"l","patches":true}"#)) }
            let ids = try await writer.result("vm.get", json(#"{"instance":"l","output":"items"}"#))["value"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            let id = ids.randomElement(using: &rng) ?? 1
            let edit: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...2: edit = #""input":"add","value":"item \#(nextID)""#; nextID += 1
            case 3: edit = #""input":"remove","value":\#(id)"#
            case 4: edit = #""input":"rename","value":{"id":\#(id),"title":"renamed \#(step)"}"#
            case 5: edit = #""input":"clearDone""#
            default: edit = #""input":"toggle","value":\#(id)"#
            }
            if ids.isEmpty && !edit.contains("add") { continue }
            try await writer.notify("vm.send", json(#"{"instance":"l",\#(edit)}"#))
            try await absorb("early", early)
            try await absorb("late", late)
            for output in ["items", "remaining"] {
                let truth = try await writer.result("vm.get", json(#"{"instance":"l","output":"\#(output)"}"#))["value"]
                #expect(views["early"]?[output] == truth, "seed \(seed) step \(step) \(output)")
                if step >= 50 { #expect(views["late"]?[output] == truth, "seed \(seed) step \(step) \(output)") }
            }
        }
        #expect(patchesSeen > 200)
    }
}

