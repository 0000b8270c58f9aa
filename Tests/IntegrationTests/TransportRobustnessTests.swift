import ReactiveTesting
import Testing
import VMTestSupport

@Suite("Transport robustness: a peer's bytes never crash the daemon", .offTheCooperativePool)
struct TransportRobustnessTests {
    @Test("random bytes on many connections, in both framings, leave the daemon serving")
    func garbageIsSurvived() throws {
        let harness = try ScriptedDaemon { $0.limits.maxFrameBytes = 4096 }
        defer { harness.stop() }
        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0..<40 {
            let client = try harness.connect()
            var bytes = (0..<Int(generator.next() % 20_000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 2 == 0 { bytes.insert(UInt8(ascii: "C"), at: 0) }  // half of them speak LSP
            try? client.dripFeed(bytes, chunkSizes: [1, 7, 300, 4096], gap: .zero)
            if round % 3 == 0 { try? client.finishWriting() }
            client.close()
        }
        #expect(Waiting.until { harness.daemon.log.all.filter { $0.contains("connection closed") }.count == 40 })
        let survivor = try harness.connect()
        defer { survivor.close() }
        try survivor.sendLine(#"{"still":"here"}"#)
        #expect(try survivor.readLine() == #"{"still":"here"}"#)
    }
}

