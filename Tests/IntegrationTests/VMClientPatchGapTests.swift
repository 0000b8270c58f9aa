import JSONCore
import Testing
import VMClient
import VMProtocol
import VMTestSupport

/// A patch subscription in ``VMClient`` applies a patch only on top of the value it holds
/// right before it (PROTOCOL.md §18, "Patches across a resume"; issue 31, item 2).
@Suite("VMClient discards patches after a gap until a whole value arrives")
struct VMClientPatchGapTests {
    /// One `vm.output` of `sub-1` for output `items`: `value` whole, or `patch`.
    static func output(seq: Int64, value: JSONValue? = nil, patch: JSONValue? = nil) -> JSONValue {
        var params: JSONObject = ["subscription": "sub-1", "instance": "todo-1", "output": "items", "seq": .integer(seq)]
        if let value { params["value"] = value }
        if let patch { params["patch"] = patch }
        return FakeDaemon.notification("vm.output", .object(params))
    }

    static func append(_ element: Int64) -> JSONValue { [["op": "add", "path": "/-", "value": .integer(element)]] }

    @Test("a patch after a seq gap or a vm.overflow is not applied; the next whole value is, and patches after it")
    func patchesAfterAGapWaitForAWholeValue() async throws {
        let directory = try TemporarySocketDirectory()
        defer { directory.remove() }
        let socket = directory.socketPath
        let daemon = try FakeDaemon(path: socket) { method, _, id in
            switch method {
            case "daemon.info":
                return [FakeDaemon.info(id, bootID: "boot-1", socket: socket)]
            case "vm.subscribe":
                return [
                    FakeDaemon.reply(id, ["subscription": "sub-1"]),
                    Self.output(seq: 1, value: [1]),
                    Self.output(seq: 2, patch: Self.append(2)),        // [1, 2]
                    Self.output(seq: 5, patch: Self.append(5)),        // after a gap: no base
                    Self.output(seq: 6, patch: Self.append(6)),        // still none
                    Self.output(seq: 7, value: [7]),
                    Self.output(seq: 8, patch: Self.append(8)),        // [7, 8]
                    FakeDaemon.notification("vm.overflow", ["subscription": "sub-1", "instance": "todo-1", "lost": ["from": 9, "to": 9]]),
                    Self.output(seq: 10, patch: Self.append(10)),      // after an overflow: no base
                    Self.output(seq: 11, value: [11]),
                    FakeDaemon.notification("vm.closed", ["subscription": "sub-1", "instance": "todo-1", "reason": "destroyed"]),
                ]
            default:
                return [FakeDaemon.failure(id, code: -32601, name: "methodNotFound", message: "no \(method)")]
            }
        }
        defer { daemon.stop() }
        let client = try await VMClient.connect(to: VMSocketLocation(path: socket))
        defer { client.close() }
        let subscription = try await client.subscribe(instance: "todo-1", options: SubscribeOptions(outputs: ["items"], patches: true))
        var values: [Int64: JSONValue] = [:]
        for try await event in subscription {
            if case .output(let output) = event { values[output.seq] = output.value }
        }
        #expect(values == [1: [1], 2: [1, 2], 7: [7], 8: [7, 8], 11: [11]])
    }
}
