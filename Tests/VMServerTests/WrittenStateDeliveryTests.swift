import JSONCore
import Testing
import VMServer
import VMTestSupport
import ViewModelCatalog
import ViewModelKit

/// A state whose type writes its own text (TodoRecord's `item`, a `JSONByteWritable`
/// TodoItem) reaches whole-value subscribers as bytes written without a tree; patch
/// subscribers of the same state still get patches diffed from trees, and `vm.get` reads the
/// value the last send left.
@Suite("States written straight to bytes for subscribers")
struct WrittenStateDeliveryTests {
    func fixture() throws -> InMemoryServer {
        var registry = ViewModelRegistry()
        try registry.register(TodoRecord.self)
        return try InMemoryServer.forTests(registry: registry)
    }

    /// The `item` values (or patches) written to `client` since the last call.
    func items(_ client: RPCSession) async throws -> [JSONValue] {
        try await client.takeAvailable().compactMap { message in
            guard let params = message["params"], params["output"] == "item" else { return nil }
            return params["value"] ?? ["patch": params["patch"] ?? .null]
        }
    }

    static let sent: [String] = [
        #"{"id":1,"title":"Buy milk","done":false}"#,
        #"{"id":2,"title":"caf\u00e9 \"quoted\" \\ \n tab\t","done":true}"#,
        #"{"id":-9223372036854775808,"title":"","done":false}"#,
        #"{"id":9223372036854775807,"title":"日本語 😀","done":true}"#,
    ]

    @Test("a lone whole-value subscriber gets each item as its tree would be written, and vm.get reads it")
    func wholeValueSubscriber() async throws {
        let fixture = try fixture()
        let writer = fixture.open(), reader = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoRecord","id":"r"}"#))
        _ = try await reader.result("vm.subscribe", json(#"{"instance":"r","outputs":["item"],"replay":false}"#))
        for value in Self.sent {
            try await writer.notify("vm.send", json(#"{"instance":"r","input":"editItem","value":\#(value)}"#))
            let expected = try TodoItem(json: json(value)).jsonValue
            #expect(try await items(reader) == [expected])
            #expect(try await writer.result("vm.get", json(#"{"instance":"r","output":"item"}"#))["value"] == expected)
        }
    }

    @Test("a subscriber that comes after the sends gets the current item as its replay")
    func lateSubscriberReplay() async throws {
        let fixture = try fixture()
        let writer = fixture.open(), early = fixture.open(), late = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoRecord","id":"r"}"#))
        _ = try await early.result("vm.subscribe", json(#"{"instance":"r","outputs":["item"],"replay":false}"#))
        for value in Self.sent { try await writer.notify("vm.send", json(#"{"instance":"r","input":"editItem","value":\#(value)}"#)) }
        #expect(try await items(early).count == Self.sent.count)
        _ = try await late.result("vm.subscribe", json(#"{"instance":"r","outputs":["item"]}"#))
        #expect(try await items(late) == [try TodoItem(json: json(Self.sent[Self.sent.count - 1])).jsonValue])
    }

    @Test("whole-value and patch subscribers of the same state each get a correct view of every send")
    func wholeAndPatchSubscribers() async throws {
        let fixture = try fixture()
        let writer = fixture.open(), whole = fixture.open(), patcher = fixture.open()
        _ = try await writer.result("vm.create", json(#"{"type":"TodoRecord","id":"r"}"#))
        _ = try await whole.result("vm.subscribe", json(#"{"instance":"r","outputs":["item"]}"#))
        _ = try await patcher.result("vm.subscribe", json(#"{"instance":"r","outputs":["item"],"patches":true}"#))
        var wholeView = try await items(whole).last
        var patchView = try await items(patcher).last
        var patchesSeen = 0
        // A long title that stays while `done` flips: those changes go to the patch subscriber as patches.
        let long = "a rather long title, so that a patch of one member is shorter than the item"
        let toggles = [true, false, true].map { #"{"id":5,"title":"\#(long)","done":\#($0)}"# }
        for (index, value) in (Self.sent + toggles + Self.sent.reversed()).enumerated() {
            try await writer.notify("vm.send", json(#"{"instance":"r","input":"editItem","value":\#(value)}"#))
            let expected = try TodoItem(json: json(value)).jsonValue
            for received in try await items(whole) { wholeView = received }
            for received in try await items(patcher) {
                if case .object(let object) = received, object.count == 1, let patch = object["patch"] {
                    patchesSeen += 1
                    patchView = try JSONPatch(json: patch).applied(to: patchView ?? .null)
                } else {
                    patchView = received
                }
            }
            #expect(wholeView == expected, "send \(index)")
            #expect(patchView == expected, "send \(index)")
            #expect(try await writer.result("vm.get", json(#"{"instance":"r","output":"item"}"#))["value"] == expected)
        }
        #expect(patchesSeen > 0)
        // The patch subscriber leaves: the lone whole-value subscriber is written to as text again.
        _ = try await patcher.result("vm.unsubscribe", json(#"{"subscription":"sub-2"}"#))
        try await writer.notify("vm.send", json(#"{"instance":"r","input":"editItem","value":\#(Self.sent[1])}"#))
        #expect(try await items(whole) == [try TodoItem(json: json(Self.sent[1])).jsonValue])
    }
}
