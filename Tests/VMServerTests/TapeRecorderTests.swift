import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport
import ViewModelKit

/// The flight recorder (TapeRecorder.swift) behind `vm.create {record: true}` and `vm.tape`.
@Suite("The tape recorder")
struct TapeRecorderTests {
    /// `{"event", "input"|"action"|"output", "value"}` of each line after the header.
    private static func summary(_ tape: [JSONValue]) -> [String] {
        tape.dropFirst().map { line in
            let name = line["input"] ?? line["action"] ?? line["output"] ?? .null
            return "\(line["event"]?.stringValue ?? "?") \(name.stringValue ?? "?") \(line["value"]?.encodedString() ?? "-")"
        }
    }

    @Test("plain sends skip the fast path and are taped; refused ones are not; an action is taped at its place")
    func sendsAndActions() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t","args":{"start":8},"record":true}"#))
        try await client.send(#"{"jsonrpc":"2.0","id":"s1","method":"vm.send","params":{"instance":"t","input":"add","value":2}}"#)
        try await client.send(#"{"jsonrpc":"2.0","id":"s2","method":"vm.send","params":{"instance":"t","input":"add","value":"x"}}"#)
        try await client.send(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t","input":"add"}}"#)
        _ = try await client.result("vm.execute", json(#"{"instance":"t","action":"reset","timeoutMs":500}"#))
        let tape = try await client.result("vm.tape", json(#"{"instance":"t"}"#))["tape"]?.arrayValue ?? []
        #expect(tape.first == ["tape": 2, "type": "Tally", "args": ["start": 8], "instance": "t", "fromCreation": true])
        #expect(Self.summary(tape) == [
            "output count 8", "output parity \"even\"",
            "input add 2", "output count 10", "output milestone 10",
            "input add -", "output count 11", "output parity \"odd\"",
            "action reset -", "output count 0", "output parity \"even\"",
        ])
        let action = tape.first { $0["event"] == "action" }
        #expect(action?["outcome"] == ["result": 0] && action?["timeoutMs"] == 500)
    }

    @Test("past its bound the recorder drops the oldest events and says so; it never holds more")
    func bound() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t"}"#))
        let instance = try fixture.server.host.instance("t")
        let recorder = TapeRecorder(instance: instance, args: nil, clock: { fixture.server.scheduler.now }, maxBytes: 2_000)
        for _ in 0..<100 { try instance.send(input: "set", value: 5) ; try instance.send(input: "add", value: 1) }
        _ = recorder.input("add", value: 1, connection: 1)
        #expect(recorder.bytes <= 2_000)
        #expect(recorder.dropped > 0)
        let tape = try JSONValue(parsing: String(decoding: recorder.encodedResult(), as: UTF8.self))["tape"]?.arrayValue ?? []
        #expect(tape.first?["fromCreation"] == false)
        #expect(tape.first?["dropped"]?.intValue == recorder.dropped)
        #expect(tape.last?["event"] == "input")
    }

    /// A password field: its input's schema is `writeOnly` (how a secret input publishes itself).
    struct Vault: ViewModel {
        static let summary = "A secret and whether it is long enough."

        struct Ports: ViewModelPorts {
            let password = Input<String>("A secret.", codec: ValueCodec<String>.json.withSchema(["type": "string", "writeOnly": true]))
            let isLongEnough = State<Bool>("At least 6 characters.", initial: false)
        }

        init(ports: Ports, context: Context) {
            ports.isLongEnough.bind(ports.password.map { $0.count >= 6 })
        }
    }

    @Test("a secret (writeOnly) input's value is taped as <redacted>")
    func secretInputs() async throws {
        var registry = ViewModelRegistry()
        try registry.register(Vault.self)
        let fixture = try InMemoryServer.forTests(registry: registry)
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Vault","id":"v","record":true}"#))
        _ = try await client.result("vm.send", json(#"{"instance":"v","input":"password","value":"hunter22"}"#))
        let tape = try await client.result("vm.tape", json(#"{"instance":"v"}"#))["tape"]?.arrayValue ?? []
        #expect(Self.summary(tape) == ["output isLongEnough false", "input password \"<redacted>\"", "output isLongEnough true"])
    }
}
