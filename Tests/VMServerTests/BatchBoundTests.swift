import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

/// One batch frame must not queue more than `maxOutboundBytes` (plus the
/// one reply that crossed it, and the short refusals), however many items it holds.
@Suite("Batches stop running requests once the connection's outbound bound is reached (PROTOCOL.md section 11)")
struct BatchBoundTests {
    static let bound = 4096

    /// A server whose `maxOutboundBytes` is 4 KiB, with `count` instances, and a client whose
    /// sink keeps every byte pending (a reader that never reads).
    func crowdedServer(instances count: Int) async throws -> (InMemoryServer, RPCSession) {
        let fixture = try InMemoryServer.forTests(limits: VMLimits(maxOutboundBytes: Self.bound))
        let client = fixture.open()
        for index in 0..<count {
            _ = try await client.result("vm.create", json(#"{"type":"Tally","id":"t\#(index)"}"#))
        }
        client.sink.holdsBytes = true
        return (fixture, client)
    }

    func batch(of count: Int, _ method: String, firstID: Int = 1) -> String {
        "[" + (0..<count).map { #"{"jsonrpc":"2.0","id":\#(firstID + $0),"method":"\#(method)"}"# }.joined(separator: ",") + "]"
    }

    @Test("a never-read batch of many vm.list queues about one bound, and the rest is refused with limitReached")
    func batchOfListsIsBounded() async throws {
        let (_, client) = try await crowdedServer(instances: 40)
        let single = try await client.result("vm.list").encodedBytes().count
        client.sink.flush()
        #expect(single > Self.bound / 4)
        try await client.send(batch(of: 200, "vm.list", firstID: 100))
        #expect(client.sink.messages.count == 1)
        let queued = client.sink.pendingBytes
        let replies = try await client.takeAvailable().first?.arrayValue ?? []
        #expect(replies.count == 200)
        let lists = replies.filter { $0["result"] != nil }
        let refusals = replies.filter { $0["error"]?["data"]?["limit"] == "maxOutboundBytes" }
        #expect(lists.count >= 1 && lists.count <= Self.bound / single + 1)
        #expect(refusals.count == 200 - lists.count)
        // Ids are echoed in order, and a refused request says why and that it did not run.
        #expect(replies.map { $0["id"]?.intValue } == (100..<300).map { Optional($0) })
        #expect(refusals.first?["error"]?["code"] == .integer(Int64(VMErrorCode.limitReached.number)))
        #expect(refusals.first?["error"]?["message"]?.stringValue?.contains("did not run") == true)
        // The bound, one reply that crossed it, and 200 short refusals at most.
        #expect(queued < Self.bound + single + 200 * 300)
    }

    @Test("requests of a batch arriving while the queue is already full do not run, notifications still do")
    func fullQueueRefusesTheWholeBatch() async throws {
        let (_, client) = try await crowdedServer(instances: 1)
        client.sink.pendingBytes = Self.bound
        try await client.send("""
            [{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Tally","id":"late"}},
             {"jsonrpc":"2.0","method":"vm.send","params":{"instance":"t0","input":"add","value":5}},
             {"jsonrpc":"2.0","id":2,"method":"vm.get","params":{"instance":"t0","output":"count"}}]
            """)
        let replies = try await client.takeAvailable().first?.arrayValue ?? []
        #expect(replies.map { $0["error"]?["data"]?["limit"] } == ["maxOutboundBytes", "maxOutboundBytes"])
        client.sink.flush()
        #expect(try await client.result("vm.get", json(#"{"instance":"t0","output":"count"}"#)) == json(#"{"value":5}"#))
        let error = try await client.failure("vm.get", json(#"{"instance":"late","output":"count"}"#))
        #expect(error["data"]?["name"] == "unknownInstance")
    }

    @Test("a batch under the bound is answered in full")
    func smallBatchRunsEverything() async throws {
        let (_, client) = try await crowdedServer(instances: 2)
        try await client.send(batch(of: 3, "vm.list"))
        let replies = try await client.takeAvailable().first?.arrayValue ?? []
        #expect(replies.count == 3)
        #expect(replies.allSatisfy { $0["result"]?["instances"]?.arrayValue?.count == 2 })
    }
}
